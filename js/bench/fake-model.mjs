// A stand-in for anywidget's model in a plain page and in Node tests: the page's own
// model (js/src/app/page-model.js), with the messages it was sent kept in `sent`.
import { createPageModel } from "../src/app/page-model.js";

export function fakeModel(initial) {
  const sent = [];
  const model = createPageModel(initial, { onSend: (msg) => sent.push(msg) });
  model.sent = sent;
  return model;
}

export { TRAIT_DEFAULTS as defaults } from "../src/model/contract.js";
