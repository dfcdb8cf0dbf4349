/** Bills API stage ids and what the snapshot format calls them. */

/** Normalised stage names by Bills API stage id, exactly as the data README's table. */
export const STAGE_NAMES: Readonly<Record<number, string>> = {
  1: 'first_reading',
  6: 'first_reading',
  2: 'second_reading',
  7: 'second_reading',
  3: 'committee',
  8: 'committee',
  48: 'committee',
  49: 'committee',
  4: 'report',
  9: 'report',
  5: 'third_reading',
  10: 'third_reading',
  12: 'consideration_of_amendments',
  13: 'consideration_of_amendments',
  42: 'consideration_of_amendments',
  11: 'royal_assent',
  14: 'programme_motion',
  15: 'money_resolution',
  36: 'ways_and_means_resolution',
  28: 'allocation_of_time_motion',
  29: 'allocation_of_time_motion',
  25: 'second_reading_committee',
  30: 'second_reading_committee',
  24: 'order_of_commitment_discharged',
  26: 'order_of_commitment_discharged',
  27: 'committee_negatived',
  18: 'carry_over_motion',
  19: 'carry_over_motion',
  20: 'suspension_motion',
  31: 'suspension_motion',
  33: 'suspension_motion',
  32: 'revival_motion',
  34: 'revival_motion',
  21: 'bill_reintroduced',
  22: 'bill_reintroduced',
  23: 'private_bill_petition',
  16: 'standing_orders_examination',
  17: 'standing_orders_examination',
  41: 'standing_orders_examination',
  44: 'standing_orders_examination',
  35: 'instruction',
  37: 'instruction',
  38: 'legislative_grand_committee',
  43: 'select_committee',
  46: 'select_committee',
  47: 'select_committee',
  39: 'reconsideration',
  40: 'consequential_consideration',
};

/** A stage id the table does not know (the API may add some) keeps its id and description but gets this name. */
export const UNKNOWN_STAGE = 'other';

export function stageName(stageId: number): string {
  return STAGE_NAMES[stageId] ?? UNKNOWN_STAGE;
}
