// Parses the RESP2 reply a command wrote for the script client back into a value redis.call can
// hand to Lua (the script client always speaks RESP2, like Redis's).
export type Resp2 = string | number | null | Resp2[] | { ok: string } | { err: string };

export function parseResp2(text: string): Resp2 {
  let pos = 0;
  const line = (): string => {
    const nl = text.indexOf('\r\n', pos);
    const s = text.slice(pos + 1, nl);
    pos = nl + 2;
    return s;
  };
  const one = (): Resp2 => {
    const type = text[pos];
    const l = line();
    switch (type) {
      case '+':
        return { ok: l };
      case '-':
        return { err: l };
      case ':':
        return Number(l);
      case '$': {
        const n = Number(l);
        if (n < 0) return null;
        const s = text.slice(pos, pos + n);
        pos += n + 2;
        return s;
      }
      case '*': {
        const n = Number(l);
        if (n < 0) return null;
        const out: Resp2[] = [];
        for (let i = 0; i < n; i++) out.push(one());
        return out;
      }
      default:
        throw new Error(`unexpected reply type '${String(type)}' for the script client`);
    }
  };
  return one();
}
