import type { Request, RequestHandler, Response } from 'express';
import { gatewayRequest, madeGatewayRequest } from './gateway-request';
import type { Gateway } from '../../gateway/pipeline';

/**
 * The first step of an HTTP door (/api/v1, /graphql), before its body is read: the gateway's admit
 * hooks (the per-address limit), so a client past its limits is refused before the door spends
 * anything on the request, even on one the door would refuse before the pipeline (405, 413,
 * malformed JSON, a document beyond the limits). The refusal goes to the door's error handler.
 */
export function doorEdge(gateway: Gateway, options: { browser?: boolean } = {}): RequestHandler {
  return (req, _res, next) => {
    let admitted: void | Promise<void>;
    try {
      admitted = gateway.admitAtEdge(gatewayRequest(req, options));
    } catch (error) {
      return next(error);
    }
    if (admitted) admitted.then(() => next(), next);
    else next();
  };
}

/**
 * Heard at the end of every request (a RequestObserver): a request a door admitted but refused
 * before the pipeline ran is reported to the gateway, so it counts against its address like one
 * the pipeline refused.
 */
export function reportRefusedBeforePipeline(gateway: Gateway): (req: Request, res: Response) => void {
  return (req, res) => {
    const request = madeGatewayRequest(req);
    if (request) gateway.finishBeforePipeline(request, res.statusCode);
  };
}
