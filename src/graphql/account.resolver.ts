import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../request/context';
import { AppError } from '../errors';
import type { IssuedSession } from '../services/session.service';
import { Access } from './access';
import { AccountType, ApiKeyType, CreatedApiKeyType, CredentialsInput, DashboardSessionType, DigestPreviewType, OutboxMessageType, TestEmailType, UsageType } from './account.type';
import { EmailStatus, type Tier } from './enums';

/** The browser's side of a request; sign-up and log-in refuse a page of another site (login CSRF). */
function browserOf(context: RequestContext, { sameSiteOnly = false } = {}) {
  if (!context.browser) throw new AppError('FORBIDDEN', 'This operation is for the account dashboard');
  if (sameSiteOnly && context.browser.crossSite) throw new AppError('FORBIDDEN', 'Cross-site request refused: log in from the dashboard’s own pages');
  return context.browser;
}

const keepSession = (context: RequestContext, session: IssuedSession | 'ended') => {
  browserOf(context).sessionChange = session;
};

@Resolver(() => AccountType)
export class AccountResolver {
  @Query(() => AccountType, { nullable: true, description: 'The calling account' })
  @Access('authenticated')
  me(@Ctx() { user }: RequestContext): AccountType {
    return { id: user!.accountId, email: user!.email, tier: user!.tier as Tier };
  }

  @FieldResolver(() => EmailStatus, { description: 'Whether alerts are emailed to the address: only once VERIFIED (see docs/api-channels.md, "Email")' })
  emailStatus(@Root() account: AccountType, @Ctx() { services }: RequestContext): Promise<EmailStatus> {
    return services.accountEmail.statusOf(account.id);
  }

  @FieldResolver(() => [OutboxMessageType], { description: 'The local mailbox’s newest 100 emails to the account, newest first: what would have been sent (empty when the service sends over SMTP)' })
  outbox(@Root() account: AccountType, @Ctx() { services }: RequestContext): Promise<OutboxMessageType[]> {
    return services.accountEmail.outbox(account.id);
  }

  @FieldResolver(() => DigestPreviewType, {
    nullable: true,
    description: 'The next digest email of the account’s daily and weekly watchlists, as it would be if sent now: the soonest slot with something changed; null when none has (no digest is sent then)',
  })
  nextDigest(@Root() account: AccountType, @Ctx() { services }: RequestContext): Promise<DigestPreviewType | null> {
    return services.digests.preview(account.id);
  }

  @Mutation(() => Boolean, { description: 'Sends a new verification link to the account’s address (at most 3 an hour); refused once the address is verified' })
  @Access('authenticated')
  async resendVerificationEmail(@Ctx() { user, services }: RequestContext): Promise<boolean> {
    await services.accountEmail.resend(user!.accountId);
    return true;
  }

  @Mutation(() => TestEmailType, {
    description: 'Sends the account a test email through the mail outbox (as alerts are sent), at most 5 an hour; only to a VERIFIED address (BAD_USER_INPUT otherwise, saying why)',
  })
  @Access('pilot')
  sendTestEmail(@Ctx() { user, services }: RequestContext): Promise<TestEmailType> {
    return services.accountEmail.sendTest(user!.accountId);
  }

  @Mutation(() => AccountType, { description: 'Dashboard: changes the account’s address once the current password is confirmed; UNVERIFIED until the link mailed to the new address is opened' })
  @Access('dashboard')
  async changeEmail(@Arg('email', () => String) email: string, @Arg('currentPassword', () => String) currentPassword: string, @Ctx() context: RequestContext): Promise<AccountType> {
    const account = await context.services.sessions.changeEmail(context.user!.accountId, email, currentPassword, context.browser?.clientAddress);
    return { ...account, tier: account.tier as Tier };
  }

  @Query(() => DashboardSessionType, {
    nullable: true,
    description: 'Dashboard: who is signed in on this browser, or null when no one is (a signed-out visitor is answered, not refused); null with an API key',
  })
  @Access('public')
  session(@Ctx() { user }: RequestContext): DashboardSessionType | null {
    if (user?.credential !== 'session') return null;
    return { account: { id: user.accountId, email: user.email, tier: user.tier as Tier } };
  }

  @Query(() => [UsageType], { description: 'Today’s use of each daily limit of the calling account, with when they reset' })
  @Access('authenticated')
  usage(@Ctx() { quota }: RequestContext): Promise<UsageType[]> {
    return quota!.usage();
  }

  @Mutation(() => Boolean, {
    description:
      'Dashboard: makes a Free account for the address, which can then log in. The answer is true whether or not the address already had an account (that one is left as it was), so it tells no one which addresses are registered; it signs no one in',
  })
  @Access('public')
  async signUp(@Arg('input', () => CredentialsInput) input: CredentialsInput, @Ctx() context: RequestContext): Promise<boolean> {
    const browser = browserOf(context, { sameSiteOnly: true });
    await context.services.sessions.signUp(input.email, input.password, browser.clientAddress);
    return true;
  }

  @Mutation(() => AccountType, { description: 'Dashboard: signs the browser in; a wrong email and a wrong password get the same answer' })
  @Access('public')
  async logIn(@Arg('input', () => CredentialsInput) input: CredentialsInput, @Ctx() context: RequestContext): Promise<AccountType> {
    const browser = browserOf(context, { sameSiteOnly: true });
    const { account, session } = await context.services.sessions.logIn(input.email, input.password, browser.clientAddress);
    keepSession(context, session);
    return { ...account, tier: account.tier as Tier };
  }

  @Mutation(() => Boolean, { description: 'Dashboard: ends this browser’s session' })
  @Access('dashboard')
  async logOut(@Ctx() context: RequestContext): Promise<boolean> {
    await context.services.sessions.logOut(context.user!.sessionId!);
    keepSession(context, 'ended');
    return true;
  }

  @Mutation(() => Boolean, { description: 'Dashboard: changes the password and ends every session of the account (this browser gets a new one)' })
  @Access('dashboard')
  async changePassword(@Arg('currentPassword', () => String) currentPassword: string, @Arg('newPassword', () => String) newPassword: string, @Ctx() context: RequestContext): Promise<boolean> {
    const session = await context.services.sessions.changePassword(context.user!.accountId, currentPassword, newPassword, context.browser?.clientAddress);
    keepSession(context, session);
    return true;
  }

  @Query(() => [ApiKeyType], { description: 'Dashboard: the account’s API keys, revoked ones included' })
  @Access('dashboard')
  async apiKeys(@Ctx() { user, services }: RequestContext): Promise<ApiKeyType[]> {
    return services.apiKeys.keysOf(user!.accountId);
  }

  @Mutation(() => CreatedApiKeyType, { description: 'Dashboard: issues an API key (Pilot tier or above); the key is in this answer only' })
  @Access('dashboard')
  async createApiKey(@Arg('name', () => String, { nullable: true }) name: string | null, @Ctx() { user, services }: RequestContext): Promise<CreatedApiKeyType> {
    const issued = await services.apiKeys.create(user!.email, name ?? undefined);
    const key = (await services.apiKeys.keysOf(user!.accountId)).find((k) => k.prefix === issued.prefix)!;
    return { apiKey: issued.api_key, key };
  }

  @Mutation(() => ApiKeyType, { description: 'Dashboard: revokes one of the account’s keys at once; another account’s key is NOT_FOUND' })
  @Access('dashboard')
  async revokeApiKey(@Arg('prefix', () => String) prefix: string, @Ctx() { user, services }: RequestContext): Promise<ApiKeyType> {
    await services.apiKeys.revoke(prefix, user!.accountId);
    return (await services.apiKeys.keysOf(user!.accountId)).find((k) => k.prefix === prefix)!;
  }
}
