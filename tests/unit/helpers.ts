import { ProblemError, type Problem } from '../../src/domain/problems.ts';

/** Runs `fn`, expecting it to throw a ProblemError; returns the problem. */
export function catchProblem(fn: () => unknown): Problem {
  try {
    fn();
  } catch (error) {
    if (error instanceof ProblemError) return error.problem;
    throw error;
  }
  throw new Error('Expected a ProblemError to be thrown');
}
