/**
 * A bill's short title as it stood before Royal Assent. The data carries the final title, and an
 * Act's title ("Environment Act 2021") gives away an outcome a past-date nowcast must not show:
 * until the bill is enacted it is called a Bill, with "[HL]" while it started in the Lords (the
 * Bills API's own spelling for bills still before Parliament).
 */
export function titleBeforeRoyalAssent(title: string, originatingHouse: string): string {
  const trimmed = title.trim();
  const bill = trimmed.replace(/\s+Act(\s+\d{4})?$/i, ' Bill');
  if (bill === trimmed) return trimmed;
  return originatingHouse === 'Lords' ? `${bill} [HL]` : bill;
}

/** The title to show with a nowcast: the stored one once the bill is enacted by the date, else the one before. */
export const titleAsOf = (title: string, originatingHouse: string, enactedByDate: boolean) => (enactedByDate ? title : titleBeforeRoyalAssent(title, originatingHouse));
