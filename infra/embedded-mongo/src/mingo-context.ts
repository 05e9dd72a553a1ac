// The mingo operator tables the server evaluates with: mingo's own, with the date operators
// replaced by ours (aggregation/dates.ts), so a filter's $expr, an update pipeline and every
// expression mingo evaluates answer as the typed aggregation path does. mingo's top-level classes
// merge their built-in table over any given one, so the server uses the base Query and Aggregator
// (mingo/query, mingo/aggregator) with this context.
import { Context, evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import * as accumulator from 'mingo/operators/accumulator';
import * as expression from 'mingo/operators/expression';
import * as pipeline from 'mingo/operators/pipeline';
import * as projection from 'mingo/operators/projection';
import * as query from 'mingo/operators/query';
import * as window from 'mingo/operators/window';
import { DATE_EXPRESSIONS, dateExpression } from './aggregation/date-arith.ts';
import type { Doc } from './values.ts';

type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

const dates: Record<string, ExpressionOperator> = {};
for (const op of DATE_EXPRESSIONS) {
  dates[op] = (obj, expr, options) => dateExpression(op, expr, obj as Doc, (e, d) => evalExpr(d, e, options as never));
}

export const MINGO_CONTEXT = Context.init({
  accumulator,
  expression: { ...expression, ...dates },
  pipeline,
  projection,
  query,
  window,
} as never);

/** Options for mingo's base Query and Aggregator with these tables. */
export const MINGO_OPTS = { scriptEnabled: false, context: MINGO_CONTEXT };
