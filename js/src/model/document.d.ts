// The trace document as the front end reads it (ag_jupyter/tracing/trace.schema.json is
// the authority; this is its shape for `tsc --checkJs`), and the anywidget model.

export interface Summary {
  shape?: number[];
  dtype?: string;
  values?: (number | string | boolean)[];
  min?: number | string; max?: number | string; mean?: number | string; std?: number | string;
  norm?: number | string; nan?: number; inf?: number; sampled?: boolean;
  preview?: { rows: number; cols: number; q: string; lo: number | string; hi: number | string };
}

export interface SourceLine { file?: string; lineno: number; function?: string; code?: string }

export interface TraceNode {
  id: string;
  kind: "tensor" | "op";
  label?: string; expr?: string; param?: string;
  op?: string; symbol?: string; formula?: string | null; letters?: string[];
  shape?: number[] | null; dtype?: string; device?: string;
  requires_grad?: boolean; is_leaf?: boolean; origin?: string;
  value?: Summary | null; grad?: Summary | null;
  consts?: { arg: number; value: number | string | boolean }[];
  saved?: object[]; line?: SourceLine; scope?: string; error?: string;
}

export interface TraceEdge { src: string; dst: string; arg: number }

export interface GradInput { arg: number; node: string | null; grad: Summary | null; local?: number; total?: Summary }

export interface TraceEvent {
  type: "create" | "backward_begin" | "backward_step" | "accumulate" | "backward_end" | "error" | "update"
    | "grads_cleared" | string;
  node?: string; pass?: number; roots?: string[];
  grad_output?: Summary | null; grad_inputs?: GradInput[]; formula?: string | null;
  grad?: Summary; retained?: boolean; completed?: boolean; grad_none?: string[];
  error_type?: string; message?: string; line?: SourceLine; op?: string; nonfinite_origin?: boolean;
  // update (1.5): the optimizer's own numbers; grads_cleared: what zero_grad() forgot
  optimizer?: string; values?: Record<string, Summary>; settings?: Record<string, number | boolean | number[]>;
  nodes?: string[]; set_to_none?: boolean;
}

export interface TracePass {
  index: number; first_event: number; last_event: number; backward: boolean;
  params_used: string[]; params_unused: string[]; params_with_grad: string[]; grad_none: string[] | null;
}

export interface TraceDocument {
  version?: string; title?: string; source?: string;
  nodes: TraceNode[]; edges?: TraceEdge[]; events?: TraceEvent[]; passes?: TracePass[];
}

/** What the widget needs of anywidget's model (and what a page's in-page model gives). */
export interface WidgetModel {
  get(name: string): any;
  set(name: string, value: any): void;
  on(name: string, callback: () => void): void;
  off(name?: string, callback?: () => void): void;
  save_changes(): void;
  send(message: object): void;
}
