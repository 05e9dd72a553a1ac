import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '@smm/platform';
import { type Refusal, type Requirement, refusalFor } from '../domain/caller.ts';
import { messages } from '../messages.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';

const answers: Record<Refusal, () => HttpError> = {
  tokenInvalid: () => new HttpError(401, 'TOKEN_INVALID', messages.tokenInvalid),
  guestRefused: () => new HttpError(401, 'GUEST_NOT_ALLOWED', messages.guestRefused),
  adminOnly: () => new HttpError(403, 'ADMIN_ONLY', messages.adminOnly),
};

/** Guards a route: verifies the token and lets the request on only when the requirement holds. */
export function access(verifier: TokenVerifier, requirement: Requirement) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const state = verifier.stateOf(req.get('authorization'));
    const refusal = refusalFor(requirement, state);
    if (refusal !== null) {
      req.log.info({ requirement, refusal }, 'request refused');
      next(answers[refusal]());
      return;
    }
    if (state.kind === 'signedIn') req.caller = state.caller;
    next();
  };
}
