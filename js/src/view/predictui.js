// The predict prompt under the graph: "what will a.grad be?", a box to type a number,
// a line for why, the verdicts at this step (a wrong one with its likely slip and a
// hint), once right (or shown) the chain-rule lines that make the gradient, and at a
// pass's end how it went. Verdicts stay until the leaf's .grad appears, so a "right"
// is read even when the next question follows at once. Everything goes in as text.
import { questions, questionAt, attemptsOf, parseAnswer, isRight, record, verdict, explanation, diagnose,
  summary, settled } from "../model/predict.js";

export function createPredictPanel(parent, { getPredictions, setPredictions, step }) {
  const box = document.createElement("div");
  box.className = "ag-predict";
  box.hidden = true;
  const ask = document.createElement("label");
  ask.className = "ag-predict-question";
  const input = textInput("ag-predict-input");
  input.inputMode = "decimal";
  ask.append(document.createElement("span"), input);
  const whyLabel = document.createElement("label");
  whyLabel.className = "ag-predict-reason-label";
  const reason = textInput("ag-predict-reason");
  reason.maxLength = 200;
  whyLabel.append("why (optional) ", reason);
  const check = button("predict-check", "check");
  const reveal = button("predict-reveal", "show me");
  const form = document.createElement("div");
  form.className = "ag-predict-form";
  form.append(ask, whyLabel, check, reveal);
  // Verdicts, slips and the summary are read out as they change (a polite live region).
  const feedback = document.createElement("div");
  feedback.className = "ag-predict-feedback";
  feedback.setAttribute("role", "status");
  feedback.setAttribute("aria-live", "polite");
  box.append(form, feedback);
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
    const why = reason.value.trim();
    let attempt;
    if (revealed) attempt = { revealed: true, correct: false, answer: null };
    else {
      const value = parseAnswer(input.value);
      if (value === null) { input.setCustomValidity("type a number"); input.reportValidity(); return; }
      input.setCustomValidity("");
      attempt = { answer: value, correct: isRight(value, q.expected) };
      if (!attempt.correct) attempt.slip = diagnose(index, q, value).slip;
    }
    if (why) attempt.reason = why;
    setPredictions(record(getPredictions(), q, attempt));
    input.value = "";
    reason.value = "";
    // Right (or shown): this question's gate is open. The host steps on only when no
    // other question waits at the same step; then that one is asked under this verdict.
    if (attempt.correct || attempt.revealed) step();
    input.focus();
  }
  check.addEventListener("click", () => answer(false));
  reveal.addEventListener("click", () => answer(true));
  for (const field of [input, reason]) {
    field.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") { ev.preventDefault(); answer(false); }
      ev.stopPropagation(); // typing is not a shortcut for the graph or the notebook
    });
  }

  const div = (cls, text) => {
    const d = document.createElement("div");
    d.className = cls;
    d.textContent = text;
    return d;
  };

  // One question's verdicts: each attempt, a wrong one followed by its slip and hint;
  // once settled, the lines of the chain rule that make the gradient.
  function questionBlock(q, attempts, predictions) {
    const list = document.createElement("ol");
    list.className = "ag-verdicts";
    for (const a of attempts) {
      const li = document.createElement("li");
      li.className = a.correct ? "ag-verdict ag-right" : a.revealed ? "ag-verdict ag-revealed" : "ag-verdict ag-wrong";
      li.append(div("ag-verdict-text", verdict(a)));
      if (!a.correct && !a.revealed) li.append(div("ag-slip", diagnose(index, q, a.answer).text));
      if (a.reason) li.append(div("ag-predict-said", `your why: ${a.reason}`));
      list.append(li);
    }
    const block = document.createElement("div");
    block.className = "ag-predict-block";
    block.dataset.node = q.node;
    block.append(list);
    if (settled(predictions, q)) {
      const why = document.createElement("div");
      why.className = "ag-predict-why";
      why.append(...explanation(index, q).map((t) => div("ag-predict-line", t)));
      block.append(why);
    }
    return block;
  }

  /** Shows the question open at step `at`, the verdicts of the questions whose answer
   * is on its way (asked, .grad not yet shown), and at a pass's end its summary. */
  function show(idx, at, on) {
    index = idx;
    const predictions = getPredictions();
    question = on ? questionAt(index, at, predictions) : null;
    // A question's verdicts stay from its step until its .grad has appeared.
    const shown = on ? questions(index).filter((q) => q.gate <= at && at <= q.event + 1) : [];
    const blocks = shown.map((q) => [q, attemptsOf(predictions, q)]).filter(([, attempts]) => attempts.length)
      .map(([q, attempts]) => questionBlock(q, attempts, predictions));
    const ended = on && at > 0 && index.events[at - 1] && index.events[at - 1].type === "backward_end";
    const tally = ended ? summary(index, predictions, index.events[at - 1].pass || 0) : null;
    if (tally) blocks.push(div("ag-predict-summary", tally.text));
    box.hidden = !question && !blocks.length;
    form.hidden = !question;
    if (question) ask.firstChild.textContent = `What will ${question.name}.grad be? `;
    feedback.replaceChildren(...blocks);
  }

  return { element: box, show, input };
}

// A one-line text field the browser does not fill from its history.
function textInput(className) {
  const input = document.createElement("input");
  input.className = className;
  input.type = "text";
  input.autocomplete = "off";
  return input;
}
