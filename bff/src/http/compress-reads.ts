import compression from 'compression';
import type { NextFunction, Request, Response } from 'express';

/**
 * gzip/brotli for the API's reads (the catalogue a member's order screen loads is 7 KB of JSON, 1.5
 * KB compressed; histories and the reseller's service list likewise). Only GET and HEAD: order
 * placement and the other writes answer a few hundred bytes and pay nothing for it. The live stream
 * sends `Cache-Control: no-transform`, which the middleware respects (no buffering of events).
 */
export function compressReads(): (req: Request, res: Response, next: NextFunction) => void {
  const compress = compression();
  return (req, res, next) => (req.method === 'GET' || req.method === 'HEAD' ? compress(req, res, next) : next());
}
