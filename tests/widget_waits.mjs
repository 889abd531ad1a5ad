// Where a widget waits for the learner, read with the front end's own code: the
// model's state as the kernel left it (after Run All), played by the host as the
// browser plays it until it stops, then the caption the step panel shows there.
// Reads [{trace, step, playing, live, predict, predictions, pass_index, speed, buffers}] as
// JSON on stdin, buffers as nbclient keeps a state's binary parts ([{path, data: base64}]),
// each put at its path as a DataView as the widget manager does; prints [{step, total,
// playing, caption, live_can_advance}].
import { createPageModel } from "../js/src/app/page-model.js";
import { createHost } from "../js/src/app/host.js";
import { indexTrace, stateAt, canAdvance } from "../js/src/model/timeline.js";
import { caption } from "../js/src/model/caption.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
function putBuffers(state, buffers) {
  for (const { path, data } of buffers || []) {
    let at = state;
    for (const key of path.slice(0, -1)) at = at[key];
    const bytes = Buffer.from(data, "base64");
    at[path[path.length - 1]] = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
}

const answers = JSON.parse(input).map(({ buffers, ...traits }) => {
  putBuffers(traits, buffers);
  const model = createPageModel({ ...traits });
  const host = createHost(model);
  host.getIndex(); // as a view's first draw does: the host reads the trace and clamps the step then
  // the browser's timer, without the waiting: a widget that never stops is a finding
  for (let ticks = 0; model.get("playing") && ticks < 100000; ticks++) host.dispatch({ type: "tick" });
  host.destroy();
  const index = indexTrace(model.get("trace"));
  const step = model.get("step"), live = !!model.get("live"), playing = !!model.get("playing");
  return { step, total: index.events.length, playing, live_can_advance: live && canAdvance(index),
    caption: caption(index, stateAt(index, step), { playing, live }) };
});
process.stdout.write(JSON.stringify(answers));
