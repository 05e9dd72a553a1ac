import { useEffect } from 'react';
import { authText as t } from './messages.ts';
import { naverAuthSource } from './social.ts';

/** /auth/naver: the pop-up reads ?code, posts it to the opener tagged as Naver auth, then closes. */
export default function NaverCallback() {
  useEffect(() => {
    const code = new URLSearchParams(window.location.search).get('code') ?? '';
    if (window.opener && code) window.opener.postMessage({ source: naverAuthSource, payload: code }, window.location.origin);
    window.close();
  }, []);
  return (
    <main style={{ display: 'grid', placeItems: 'center', minHeight: '100vh', padding: 24, textAlign: 'center' }}>
      <div>
        <h1 style={{ fontSize: 18 }}>{t.naverPopupTitle}</h1>
        <p>{t.naverPopupBody}</p>
      </div>
    </main>
  );
}
