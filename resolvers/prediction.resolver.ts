import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import { riskLevel } from '../model/predictor';
import type { RequestContext } from '../src/context';
import { notFound } from '../src/errors';
import type { PredictionResult } from '../src/services/prediction.service';
import { Access } from './access';
import { parseBillId } from './bill.resolver';
import { DateScalar } from './date.scalar';
import { type BillStatusAsOf, PredictionType, type RiskLevel } from './prediction.type';

export function toPredictionType(p: PredictionResult): PredictionType {
  const probabilities = p.probabilities;
  return {
    billId: p.billId,
    mode: 'nowcast',
    referenceDate: p.referenceDate,
    status: p.status as BillStatusAsOf,
    royalAssent: probabilities.royal_assent,
    nextStage30d: probabilities.next_stage_30d,
    timelineEtaDays: p.timelineEtaDays,
    stallRisk: probabilities.stall_risk,
    amendmentRisk: probabilities.amendment_risk,
    closeVote: probabilities.close_vote,
    withdrawalRisk: probabilities.withdrawal_risk,
    riskIndicators: {
      controversyScore: p.controversyScore,
      momentumScore: p.momentumScore,
      stallRiskLevel: riskLevel(probabilities.stall_risk) as RiskLevel,
      withdrawalRiskLevel: riskLevel(probabilities.withdrawal_risk) as RiskLevel,
      amendmentRiskLevel: riskLevel(probabilities.amendment_risk) as RiskLevel,
      closeVoteLevel: riskLevel(probabilities.close_vote) as RiskLevel,
    },
    modelVersion: p.modelVersion,
  };
}

@Resolver(() => PredictionType)
export class PredictionResolver {
  @Query(() => PredictionType, { description: 'The nowcast of a bill on a reference date (default: today)' })
  @Access('authenticated', { requires: ['data', 'model'] })
  async prediction(
    @Arg('billId', () => Int) billId: number,
    @Arg('referenceDate', () => DateScalar, { nullable: true }) referenceDate: string | null,
    @Ctx() { services }: RequestContext,
  ): Promise<PredictionType> {
    const id = parseBillId(billId, 'billId');
    const [result] = await services.predictions.nowcasts([id], services.predictions.referenceDate(referenceDate));
    if (!result) throw notFound(`bill ${id} does not exist`);
    return toPredictionType(result);
  }
}
