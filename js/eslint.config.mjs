// The JS linter, run by `npm test`: ESLint's recommended rules on the front end,
// its tests and benchmarks, and the JupyterLab extension.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "labextension/node_modules/"] },
  js.configs.recommended,
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
];
