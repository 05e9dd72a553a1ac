import type { NextFunction, Request, Response } from 'express';
import { type Restriction, restrictionMessage } from '@smm/contracts';
import { HttpError } from '@smm/platform';
import { type CallerState, type Refusal, type Requirement, refusalFor } from '../domain/caller.ts';
import { messages } from '../messages.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { callContext } from './context.ts';

const answers: Record<Refusal, (state: CallerState) => HttpError> = {
  tokenInvalid: () => new HttpError(401, 'TOKEN_INVALID', messages.tokenInvalid),
  guestRefused: () => new HttpError(401, 'GUEST_NOT_ALLOWED', messages.guestRefused),
  adminOnly: () => new HttpError(403, 'ADMIN_ONLY', messages.adminOnly),
  areaRefused: () => new HttpError(403, 'AREA_FORBIDDEN', messages.areaForbidden),
  restricted: (state) => (state.kind === 'restricted' ? restrictedError(state.restriction) : new HttpError(401, 'TOKEN_INVALID', messages.tokenInvalid)),
};

/** 403 for a suspended or banned member: the Korean message names the level, the reason and the end. */
export const restrictedError = (restriction: Restriction) =>
  new HttpError(403, restriction.level === 'banned' ? 'MEMBER_BANNED' : 'MEMBER_SUSPENDED', restrictionMessage(restriction));

/** Guards a route: verifies the token and lets the request on only when the requirement holds. */
export function access(verifier: TokenVerifier, requirement: Requirement) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    let state;
    try {
      state = await verifier.stateOf(req.get('authorization'), callContext(req));
    } catch (error) {
      next(error);
      return;
    }
    // The path below /api: a staff member's areas are checked against it (issue 41).
    const refusal = refusalFor(requirement, state, req.originalUrl.split('?')[0]!.replace(/^\/api(?=\/)/, ''));
    if (refusal !== null) {
      req.log.info({ requirement, refusal }, 'request refused');
      next(answers[refusal](state));
      return;
    }
    if (state.kind === 'signedIn') req.member = state.caller;
    next();
  };
}
