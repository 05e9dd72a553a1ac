import type { Express } from 'express';
import { operatorAccessRequest, operatorCreateRequest, twoFactorEnrolRequest, twoFactorRequest } from '@smm/contracts/http';
import type { AuthServices } from '../use-cases/context.ts';
import { callingOperator } from '../use-cases/operators.ts';
import { changeOperatorAccess, createOperator, listOperators, resetOperatorTwoFactor, setOperatorDisabled } from '../use-cases/staff.ts';
import { beginEnrolment, confirmEnrolment, verifySecondFactor } from '../use-cases/two-factor.ts';
import { callerOf, originOf } from './request.ts';

/**
 * Issue 41: the operators' second factor at sign-in (no caller yet: the challenge names the
 * operator) and staff management (admins only; auth reads the caller's role from its own members).
 */
export function operatorRoutes(app: Express, services: AuthServices): void {
  app.post('/sessions/two-factor', async (req, res) => {
    res.json(await verifySecondFactor(services, twoFactorRequest.parse(req.body)));
  });
  app.post('/sessions/two-factor/enrolment', async (req, res) => {
    res.json(await beginEnrolment(services, twoFactorEnrolRequest.parse(req.body)));
  });
  app.post('/sessions/two-factor/enrolment/confirm', async (req, res) => {
    res.json(await confirmEnrolment(services, twoFactorEnrolRequest.parse(req.body), originOf(req)));
  });

  app.get('/admin/operators', async (req, res) => {
    await callingOperator(services, callerOf(req), 'admin');
    res.json(await listOperators(services));
  });
  app.post('/admin/operators', async (req, res) => {
    const admin = await callingOperator(services, callerOf(req), 'admin');
    res.status(201).json(await createOperator(services, admin, operatorCreateRequest.parse(req.body), originOf(req)));
  });
  app.put('/admin/operators/:userId', async (req, res) => {
    const admin = await callingOperator(services, callerOf(req), 'admin');
    res.json(await changeOperatorAccess(services, admin, req.params.userId, operatorAccessRequest.parse(req.body), originOf(req)));
  });
  app.post('/admin/operators/:userId/disable', async (req, res) => {
    const admin = await callingOperator(services, callerOf(req), 'admin');
    res.json(await setOperatorDisabled(services, admin, req.params.userId, true, originOf(req)));
  });
  app.post('/admin/operators/:userId/enable', async (req, res) => {
    const admin = await callingOperator(services, callerOf(req), 'admin');
    res.json(await setOperatorDisabled(services, admin, req.params.userId, false, originOf(req)));
  });
  app.post('/admin/operators/:userId/two-factor/reset', async (req, res) => {
    const admin = await callingOperator(services, callerOf(req), 'admin');
    res.json(await resetOperatorTwoFactor(services, admin, req.params.userId, originOf(req)));
  });
}
