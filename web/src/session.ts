import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Account, Tier } from './generated/schema';

export type { Tier };

/** Who is signed in (operations.ts: SESSION), typed from the schema. */
export type Me = Pick<Account, 'email' | 'tier'>;

/** Who is signed in (null: nobody), and how to tell the app it changed. */
export interface SessionState {
  me: Me | null;
  setMe(me: Me | null): void;
}

export const SessionContext = createContext<SessionState>({ me: null, setMe: () => undefined });
export const useSession = () => useContext(SessionContext);

export const tierName = (tier: Tier) => tier.charAt(0) + tier.slice(1).toLowerCase();
