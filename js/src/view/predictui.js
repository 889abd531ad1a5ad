// The predict prompt under the graph: "what will a.grad be?", a box to type a
// number, the verdicts so far and, once right (or shown), the chain-rule lines
// that make the gradient. Everything goes in as text.
import { questionAt, attemptsOf, parseAnswer, isRight, record, verdict, explanation } from "../model/predict.js";

export function createPredictPanel(parent, { getPredictions, setPredictions, step }) {
  const box = document.createElement("div");
  box.className = "ag-predict";
  box.hidden = true;
  const ask = document.createElement("label");
  ask.className = "ag-predict-question";
  const input = document.createElement("input");
  input.className = "ag-predict-input";
  input.type = "text";
  input.inputMode = "decimal";
  input.autocomplete = "off";
  const check = button("predict-check", "check");
  const reveal = button("predict-reveal", "show me");
  const form = document.createElement("div");
  form.className = "ag-predict-form";
  form.append(ask, input, check, reveal);
  const verdicts = document.createElement("ol");
  verdicts.className = "ag-verdicts";
  const why = document.createElement("div");
  why.className = "ag-predict-why";
  box.append(form, verdicts, why);
  parent.appendChild(box);
  let question = null, index = null;

  function button(action, text) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.action = action;
    b.textContent = text;
    return b;
  }

  function answer(revealed) {
    if (!question) return;
    const q = question;
    let attempt;
    if (revealed) attempt = { revealed: true, correct: false, answer: null };
    else {
      const value = parseAnswer(input.value);
      if (value === null) { input.setCustomValidity("type a number"); input.reportValidity(); return; }
      input.setCustomValidity("");
      attempt = { answer: value, correct: isRight(value, q.expected) };
    }
    setPredictions(record(getPredictions(), q, attempt));
    input.value = "";
    // Right (or shown): the gate is open; step on so the gradient appears.
    if (attempt.correct || attempt.revealed) step();
  }
  check.addEventListener("click", () => answer(false));
  reveal.addEventListener("click", () => answer(true));
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") { ev.preventDefault(); answer(false); }
    ev.stopPropagation(); // typing is not a shortcut for the graph or the notebook
  });

  /** Shows the question before event `at`, or the verdicts of the one just answered. */
  function show(idx, at, on) {
    index = idx;
    const predictions = getPredictions();
    question = on ? questionAt(index, at, predictions) : null;
    let shown = question;
    if (!shown && on && at > 0) {
      const e = index.events[at - 1];
      const q = e && e.type === "accumulate" ? { node: e.node, event: at - 1 } : null;
      const done = q && attemptsOf(predictions, q);
      if (done && done.length) shown = { ...q, name: done[0].name, expected: done[0].expected, pass: done[0].pass };
    }
    box.hidden = !shown;
    if (!shown) return;
    form.hidden = !question;
    if (question) ask.textContent = `What will ${question.name}.grad be? `;
    const attempts = attemptsOf(predictions, shown);
    verdicts.replaceChildren(...attempts.map((a) => {
      const li = document.createElement("li");
      li.className = a.correct ? "ag-verdict ag-right" : a.revealed ? "ag-verdict ag-revealed" : "ag-verdict ag-wrong";
      li.textContent = verdict(a);
      return li;
    }));
    why.replaceChildren(...(question ? [] : explanation(index, shown).map((t) => {
      const line = document.createElement("div");
      line.textContent = t;
      return line;
    })));
  }

  return { element: box, show, input };
}
