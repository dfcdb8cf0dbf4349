import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType('PredictionTrust', {
  description:
    'How far to trust a probability: how the model card’s held-out nowcasts like it turned out (the same kind of bill, the same furthest stage, the probability in the same tenth; each bill weighing 1)',
  simpleResolvers: true,
})
export class PredictionTrustType {
  @Field(() => String, { description: '"royal_assent" or "next_stage_30d"' })
  output: string;

  @Field(() => String, { description: '"kind_and_stage": bills of the same kind at the same stage; "kind": of the same kind at any stage, where too few were at its stage' })
  scope: string;

  @Field(() => Float, { description: 'the tenth of probability the figure falls in: its lower end (0.9 for 0.9–1.0)' })
  binLower: number;

  @Field(() => Float)
  binUpper: number;

  @Field(() => Float, { description: 'the held-out bills in that tenth, each bill weighing 1 across its nowcasts' })
  bills: number;

  @Field(() => Int, { description: 'the held-out nowcasts in that tenth' })
  nowcasts: number;

  @Field(() => Float, { nullable: true, description: 'their mean predicted probability' })
  meanPredicted: number | null;

  @Field(() => Float, { nullable: true, description: 'the share of them that came true; null when fewer than 10 bills: too few to say' })
  observedRate: number | null;

  @Field(() => [String], { description: 'the sessions the evaluation held out, e.g. "2017-19"' })
  testSessions: string[];
}
