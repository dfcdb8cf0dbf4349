/** A REST answer that is not JSON (a CSV export): its text, media type and headers of its own. */
export class TextBody {
  constructor(
    readonly text: string,
    readonly contentType: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}
