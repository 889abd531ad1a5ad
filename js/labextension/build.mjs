// Builds the JupyterLab extension into ../../ag_jupyter/labextension with
// jupyter-builder (webpack module federation, as every prebuilt extension does),
// against the published core packages of JupyterLab CORE_VERSION: no JupyterLab
// needs to be installed where the package is built.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const CORE_VERSION = "4.6.4";
const here = new URL(".", import.meta.url).pathname;
const run = (cmd, args) => execFileSync(cmd, args, { cwd: here, stdio: "inherit" });
if (!existsSync(`${here}node_modules/@jupyterlab/builder`)) run("npm", ["ci", "--no-audit", "--no-fund"]);
const args = ["build", ".", "--core-version", CORE_VERSION];
try {
  run("jupyter-builder", args); // on PATH in a pip build environment and in a venv with JupyterLab
} catch (error) {
  if (error.code !== "ENOENT") throw error;
  const python = process.env.PYTHON || "python3";
  try {
    run(python, ["-m", "jupyter_builder.main", ...args]);
  } catch {
    throw new Error(`jupyter-builder is needed to build the JupyterLab extension and ${python} has none: `
      + "activate the project's virtualenv (pip install -e '.[jupyter]' installs it), or set PYTHON to a Python with it");
  }
}
