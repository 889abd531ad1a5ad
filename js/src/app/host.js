// Per-model state that outlives any one view: the indexed trace and the play timer.
// Created in anywidget's initialize(), so a widget shown twice ticks once, not
// twice. Views send player actions here; the timeline.js reducer decides, the host
// writes `step` / `playing` back to the model (and so to Python).
import { indexTrace, passRange, player, tickDelay, canAdvance, forwardEnds } from "../model/timeline.js";
import { predictStop } from "../model/predict.js";
import { TRAIT_DEFAULTS } from "../model/contract.js";
import { applyChange } from "../model/trace-change.js";
import { unpackValues } from "../model/wirevalues.js";

/** Read a trait, with the contract's default where the model lacks it (an older
 * Python side, a page written before the trait existed). */
/**
 * @param {import("../model/document.js").WidgetModel} model
 * @param {string} name
 */
export function trait(model, name) {
  const v = model.get(name);
  return v === undefined || v === null ? TRAIT_DEFAULTS[name] : v;
}

/** @param {import("../model/document.js").WidgetModel} model */
export function createHost(model) {
  // `shown` is the trace trait with live mode's changes applied since it last changed
  let traceRef, shown = null, index = indexTrace(null), timer = null, pending = false;
  // The first trace is read (unpacked, indexed) and its step clamped when something first
  // asks for the index (a view's first draw), not when the model is made: JupyterLab
  // handles the kernel's messages one after another, and the cell's output waited behind
  // this model's making (~0.1 s at 10,000 nodes) before it could appear.
  let firstClamp = true;
  const handlers = [], listeners = new Set();
  const on = (name, fn) => { model.on(name, fn); handlers.push([name, fn]); };

  function getIndex() {
    const t = model.get("trace");
    if (t !== traceRef) { traceRef = shown = t; index = indexTrace(unpackValues(t)); }
    if (firstClamp) { firstClamp = false; clampStep(index); }
    return index;
  }

  // Live mode: a step of the real backward arrives as its change to the document.
  function onMessage(msg) {
    if (!msg || msg.type !== "trace_change") return;
    getIndex();
    const next = applyChange(shown || {}, msg);
    if (!next) return; // made against another document: the next trace trait brings the whole
    shown = next;
    index = indexTrace(next);
    for (const fn of listeners) fn();
  }

  function snapshot() {
    const idx = getIndex();
    const live = !!trait(model, "live");
    return { step: trait(model, "step"), playing: !!trait(model, "playing"), live,
      canAdvance: live && canAdvance(idx), pauses: forwardEnds(idx), ...passRange(idx, trait(model, "pass_index")) };
  }

  /** Apply a player action ({type: first|back|step|last|play|pause|toggle|tick|goto}). */
  function dispatch(action) {
    const before = snapshot();
    const after = player(before, action);
    // Predict mode: never step past the step that sends a leaf the gradient the learner
    // has not predicted yet, nor past a pass's summary.
    if (after.step > before.step && trait(model, "predict")) {
      const stop = predictStop(getIndex(), before.step, after.step, trait(model, "predictions"));
      if (stop !== null) Object.assign(after, { step: stop, playing: false, advance: false });
    }
    let dirty = false;
    if (after.step !== before.step) { model.set("step", after.step); dirty = true; }
    if (after.playing !== before.playing) { model.set("playing", after.playing); dirty = true; }
    if (after.advance && !pending) {
      pending = true; // one request at a time: Python answers by appending events and bumping step
      model.send(after.advance === "all" ? { type: "advance", all: true } : { type: "advance" });
    }
    if (dirty) model.save_changes();
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    timer = null;
    if (trait(model, "playing")) {
      timer = setTimeout(() => dispatch({ type: "tick" }), tickDelay(trait(model, "speed")));
    }
  }

  // A new trace: clamp the step; with animate off, show the final graph at once.
  function onTrace() {
    pending = false;
    firstClamp = false;
    clampStep(getIndex());
  }

  function clampStep(idx) {
    const { min, max } = passRange(idx, trait(model, "pass_index"));
    const step = trait(model, "step");
    const want = trait(model, "animate") || trait(model, "live") ? Math.min(Math.max(step, min), max) : max;
    if (want !== step) { model.set("step", want); model.save_changes(); }
  }

  on("change:playing", schedule);
  on("change:speed", schedule);
  // Any step change restarts the countdown: if two hosts ever watch one model,
  // the first tick resets the other's timer, so the model still plays once.
  on("change:step", () => { pending = false; schedule(); });
  on("change:trace", onTrace);
  on("msg:custom", onMessage);
  on("change:pass_index", () => { // Python chose a pass: show its final state
    const { min, max } = passRange(getIndex(), trait(model, "pass_index"));
    const step = trait(model, "step");
    if (step < min || step > max) { model.set("step", max); model.save_changes(); }
  });
  schedule();

  return {
    model, dispatch, getIndex,
    /** Call ``fn`` when live mode changes the document (the trace trait stays as it was). */
    onDocumentChange(fn) { listeners.add(fn); return () => listeners.delete(fn); },
    destroy() {
      clearTimeout(timer);
      for (const [name, fn] of handlers) model.off(name, fn);
    },
  };
}
