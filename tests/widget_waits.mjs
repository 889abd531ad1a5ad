// Where a widget waits for the learner, read with the front end's own code: the
// model's state as the kernel left it (after Run All), played by the host as the
// browser plays it until it stops, then the caption the step panel shows there.
// Reads [{trace, step, playing, live, predict, predictions, pass_index, speed}] as
// JSON on stdin; prints [{step, total, playing, caption, live_can_advance}].
import { createPageModel } from "../js/src/app/page-model.js";
import { createHost } from "../js/src/app/host.js";
import { indexTrace, stateAt, canAdvance } from "../js/src/model/timeline.js";
import { caption } from "../js/src/model/caption.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const answers = JSON.parse(input).map((traits) => {
  const model = createPageModel({ ...traits });
  const host = createHost(model);
  // the browser's timer, without the waiting: a widget that never stops is a finding
  for (let ticks = 0; model.get("playing") && ticks < 100000; ticks++) host.dispatch({ type: "tick" });
  host.destroy();
  const index = indexTrace(model.get("trace"));
  const step = model.get("step"), live = !!model.get("live"), playing = !!model.get("playing");
  return { step, total: index.events.length, playing, live_can_advance: live && canAdvance(index),
    caption: caption(index, stateAt(index, step), { playing, live }) };
});
process.stdout.write(JSON.stringify(answers));
