import { useEffect, useState } from 'preact/hooks';

/**
 * Hash routes (#/bills/2900): the server serves one index.html at /, and every page has an
 * address that can be bookmarked and reloaded.
 */
export interface Route {
  path: string[];
  query: URLSearchParams;
}

function parse(hash: string): Route {
  const [path, query = ''] = hash.replace(/^#\/?/, '').split('?');
  return { path: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parse(location.hash));
  useEffect(() => {
    const update = () => setRoute(parse(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}

export const navigate = (href: string) => {
  location.hash = href.replace(/^#/, '');
};
