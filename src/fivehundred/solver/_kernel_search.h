/* The search and the playouts of the double-dummy solver (see _kernel.c and engine.py).
 *
 * This file is included twice by _kernel.c: once compiled for x86-64 CPUs with the bit
 * instructions (popcnt, lzcnt, bmi2's pext/pdep; K_BMI2 = 1, names ending in _v3) and
 * once for any CPU (K_BMI2 = 0, names ending in _base); _kernel.c picks one at import.
 * K(name) suffixes a name, KT is the functions' target attribute.
 *
 * Every function works on the packed arrays that engine.py documents: h (uint64[H_SIZE]),
 * st (int64[ST_LEN]), buf (int64[MAX_DEPTH * MAX_MOVES]), the table's rows ttk
 * (uint64[tsize][KEY_WORDS]) and check words ttc (uint64[tsize]).
 */

#define KI static inline __attribute__((always_inline)) KT

KI int64_t K(popcount)(uint64_t x) { return (int64_t)__builtin_popcountll(x); }

/* trailing / leading zeros of a non-zero word */
KI int64_t K(ctz)(uint64_t x) { return (int64_t)__builtin_ctzll(x); }
KI int64_t K(clz)(uint64_t x) { return (int64_t)__builtin_clzll(x); }

KI uint64_t K(pext)(uint64_t x, uint64_t m)
{
#if K_BMI2
    return _pext_u64(x, m);
#else
    uint64_t r = 0, k = 0;
    while (m) {
        uint64_t low = m & (~m + 1);
        if (x & low)
            r |= (uint64_t)1 << k;
        k++;
        m ^= low;
    }
    return r;
#endif
}

KI uint64_t K(pdep)(uint64_t x, uint64_t m)
{
#if K_BMI2
    return _pdep_u64(x, m);
#else
    uint64_t r = 0, k = 0;
    while (m) {
        uint64_t low = m & (~m + 1);
        if ((x >> k) & 1)
            r |= low;
        k++;
        m ^= low;
    }
    return r;
#endif
}

/* the dense cards strictly above / below c (0 <= c <= 63) */
KI uint64_t K(bits_above)(int64_t c) { return ~((((uint64_t)1 << c) << 1) - 1); }
KI uint64_t K(bits_below)(int64_t c) { return ((uint64_t)1 << c) - 1; }

/* Index in tc of the winning card of the trick tc[start:start + n]: a free joker, else the
 * highest trump, else the highest card of the suit led. */
KI int64_t K(trick_winner)(const int64_t *tc, int64_t start, int64_t n, int64_t led,
                           int64_t trump, const int64_t *csuit)
{
    int64_t best = -1, best_class = -1, best_index = start;
    for (int64_t i = start; i < start + n; i++) {
        int64_t c = tc[i], s = csuit[c], cls;
        if (s == 4)
            cls = 3;
        else if (s == trump)
            cls = 2;
        else if (s == led)
            cls = 1;
        else
            continue;
        if (cls > best_class || (cls == best_class && c > best)) {
            best_class = cls;
            best = c;
            best_index = i;
        }
    }
    return best_index;
}

/* The winner (index in st's trick) of the trick st[O_TC + start:+n] and, in *rel, the
 * winning card's bit when it beat another card of its own suit. */
KI int64_t K(winner_p)(const int64_t *st, int64_t start, int64_t n, int64_t led,
                       int64_t trump, uint64_t *rel)
{
    int64_t best_index = K(trick_winner)(st + O_TC, start, n, led, trump, st + O_CSUIT);
    int64_t best = st[O_TC + best_index];
    int64_t ws = st[O_CSUIT + best];
    *rel = 0;
    for (int64_t i = start; i < start + n; i++) {
        int64_t c = st[O_TC + i];
        if (c != best && st[O_CSUIT + c] == ws) {
            *rel = (uint64_t)1 << best;
            break;
        }
    }
    return best_index;
}

/* After the card at depth d (the trick's card number tcount): the trick's winner so far and
 * whether its rank decided anything. */
KI void K(track)(int64_t *st, int64_t d, int64_t tcount, int64_t led, int64_t trump)
{
    if (tcount == 0) {
        st[O_WIN + d] = d;
        st[O_WREL + d] = 0;
        return;
    }
    int64_t wi = st[O_WIN + d - 1];
    int64_t flag = st[O_WREL + d - 1];
    int64_t w = st[O_TC + wi];
    int64_t c = st[O_TC + d];
    int64_t ws = st[O_CSUIT + w];
    int64_t s = st[O_CSUIT + c];
    int beats;
    if (s == 4)
        beats = ws != 4 || c > w;
    else if (ws == 4)
        beats = 0;
    else if (s == trump)
        beats = ws != trump || c > w;
    else if (ws == trump)
        beats = 0;
    else
        beats = s == led && c > w;
    if (beats) {
        st[O_WIN + d] = d;
        st[O_WREL + d] = s == ws ? 1 : 0;
    } else {
        st[O_WIN + d] = wi;
        st[O_WREL + d] = (flag == 1 || s == ws) ? 1 : 0;
    }
}

KI void K(init_trick)(int64_t *st, int64_t d)
{
    int64_t tcount = st[S_TCOUNT];
    int64_t start = d - tcount;
    for (int64_t k = 0; k < tcount; k++)
        K(track)(st, start + k, k, st[S_LED], st[S_TRUMP]);
}

/* Suits a free joker may be led as (R-JOKER 5). */
KI int64_t K(joker_lead_suits)(const int64_t *st, int64_t void_p, uint64_t hand, uint64_t free)
{
    int64_t allowed;
    if (st[S_JLMODE] == 1)
        allowed = 15 & ~void_p;
    else
        allowed = 15 & ~st[S_SUITSLED];
    if (allowed == 0 && (hand & ~free) == 0)
        allowed = 15;
    return allowed;
}

/* Legal moves of the player to move into row[rb:rb + n], each score << 16 | move. */
KI int64_t K(gen_moves)(const uint64_t *h, const int64_t *st, int64_t *row, int64_t rb,
                        int64_t d, int reduce, uint64_t others)
{
    const int64_t p = st[S_TOMOVE];
    const int64_t tcount = st[S_TCOUNT];
    const int64_t misere = st[S_MISERE];
    const int64_t trump = st[S_TRUMP];
    const int64_t P = st[S_P];
    const uint64_t hand = h[p];
    const uint64_t out = others | hand;
    const int64_t start = d - tcount;
    const uint64_t free = h[H_SUIT + 4];
    const int64_t led = st[S_LED];
    const int64_t side_p = st[O_SIDE + p];
    int64_t n = 0, prev = -1;
    if (tcount == 0) {
        uint64_t partners = 0, opps = 0;
        for (int64_t i = 0; i < P; i++) {
            if (i != p) {
                if (st[O_SIDE + i] == side_p)
                    partners |= h[i];
                else
                    opps |= h[i];
            }
        }
        int64_t opp_ruff = 0, partner_ruff = 0;
        if (misere == 0) {
            uint64_t power = h[H_SUIT + 4];
            if (trump >= 0)
                power |= h[H_SUIT + trump];
            for (int64_t i = 0; i < P; i++) {
                if (i == p || (h[i] & power) == 0)
                    continue;
                for (int64_t s = 0; s < 4; s++) {
                    if (s != trump && (h[i] & h[H_SUIT + s]) == 0) {
                        if (st[O_SIDE + i] == side_p)
                            partner_ruff |= (int64_t)1 << s;
                        else
                            opp_ruff |= (int64_t)1 << s;
                    }
                }
            }
        }
        uint64_t m = hand;
        while (m) {
            int64_t c = K(ctz)(m);
            m &= m - 1;
            int64_t s = st[O_CSUIT + c];
            if (reduce && prev >= 0 && st[O_CSUIT + prev] == s &&
                (others & K(bits_below)(c) & K(bits_above)(prev)) == 0) {
                prev = c;
                continue;
            }
            prev = c;
            int64_t rank = st[O_CRANK + c];
            int64_t score;
            if (s == 4) {
                int64_t allowed = K(joker_lead_suits)(st, st[O_VOID + p], hand, free);
                for (int64_t nom = 0; nom < 4; nom++) {
                    if ((allowed >> nom) & 1) {
                        score = ((misere == 1) ? (side_p == 1 ? -100 : 80) : 20) - nom;
                        row[rb + n] = ((score + 2000) << 16) | (c * 8 + nom);
                        n++;
                    }
                }
                continue;
            }
            uint64_t so = out & h[H_SUIT + s];
            if (misere == 1) {
                if (side_p == 1) {
                    score = (opps & so & K(bits_above)(c)) ? (60 - rank) : (0 + rank);
                    for (int64_t j = 0; j < P; j++) {
                        uint64_t js = h[j] & so;
                        if (j != p && js != 0 && K(ctz)(js) > c)
                            score = 70 + rank;
                    }
                } else {
                    uint64_t theirs = opps & so;
                    if (theirs == 0)
                        score = 20 - rank;
                    else if (c < K(ctz)(theirs))
                        score = 80 - rank - 6 * K(popcount)(theirs);
                    else if (K(popcount)(theirs & K(bits_below)(c)) == 1 &&
                             K(popcount)(theirs) >= 2)
                        score = 85 - rank;
                    else
                        score = 40 - rank;
                }
            } else if ((others & so & K(bits_above)(c)) == 0) {
                score = ((opp_ruff >> s) & 1) == 0 ? (100 + (s == trump ? 5 : 0)) : 25;
            } else if (((partner_ruff >> s) & 1) == 1 && ((opp_ruff >> s) & 1) == 0) {
                score = 70 - rank;
            } else {
                uint64_t top = (uint64_t)1 << (63 - K(clz)(so));
                score = ((partners & top) ? 60 : 30) - rank;
                if (s == trump && K(popcount)((hand | partners) & so) > K(popcount)(opps & so))
                    score += 25;
            }
            row[rb + n] = ((score + 2000) << 16) | (c * 8 + NOMINATION_NONE);
            n++;
        }
        return n;
    }
    uint64_t legal = hand & h[H_SUIT + led];
    if (legal == 0) {
        if (misere == 1 && (hand & free) != 0)
            legal = hand & free;
        else
            legal = hand;
    }
    int64_t wi = st[O_WIN + d - 1];
    int64_t win_card = st[O_TC + wi];
    int64_t ws = st[O_CSUIT + win_card];
    int partner_wins = st[O_SIDE + st[O_TP + wi]] == side_p;
    int contractor_wins = st[O_SIDE + st[O_TP + wi]] == 1;
    uint64_t later = 0;
    int later_void = 0;
    uint64_t power = h[H_SUIT + 4];
    if (trump >= 0)
        power |= h[H_SUIT + trump];
    int64_t q = p;
    for (int64_t k = 0; k < P - 1 - tcount; k++) {
        q = q + 1 < P ? q + 1 : 0;
        if (st[O_SIDE + q] != side_p) {
            later |= h[q];
            if ((h[q] & h[H_SUIT + led]) == 0)
                later_void = 1;
        }
    }
    int partner_safe = (later & h[H_SUIT + ws] & K(bits_above)(win_card)) == 0;
    if (partner_safe && ws != 4 && ws != trump && (later & power) != 0 && later_void)
        partner_safe = 0;
    int contractor_done = 0;
    if (misere == 1) {
        for (int64_t k = start; k < d; k++)
            if (st[O_SIDE + st[O_TP + k]] == 1)
                contractor_done = 1;
    }
    uint64_t m = legal;
    while (m) {
        int64_t c = K(ctz)(m);
        m &= m - 1;
        int64_t s = st[O_CSUIT + c];
        if (reduce && prev >= 0 && st[O_CSUIT + prev] == s &&
            (others & K(bits_below)(c) & K(bits_above)(prev)) == 0) {
            prev = c;
            continue;
        }
        prev = c;
        int64_t rank = st[O_CRANK + c];
        int beats;
        if (s == 4)
            beats = ws != 4 || c > win_card;
        else if (ws == 4)
            beats = 0;
        else if (s == trump)
            beats = ws != trump || c > win_card;
        else if (ws == trump && trump >= 0)
            beats = 0;
        else
            beats = s == led && c > win_card;
        int64_t score;
        if (misere == 1) {
            if (side_p == 1)
                score = !beats ? (60 + rank) : (10 + rank);
            else if (contractor_wins)
                score = !beats ? (60 + rank) : (0 + rank);
            else if (contractor_done)
                score = 50 + rank;
            else if (s == led)
                score = 50 - rank;
            else
                score = 50 + rank;
        } else if (beats) {
            int safe = (later & h[H_SUIT + s] & K(bits_above)(c)) == 0;
            if (safe && s != 4 && s != trump && (later & power) != 0 && later_void)
                safe = 0;
            if (partner_wins)
                score = (safe && !partner_safe) ? (60 - rank) : (0 - rank);
            else
                score = safe ? (75 - rank) : (45 - rank);
        } else if (partner_wins) {
            score = 50 - rank;
        } else {
            score = 20 - rank;
        }
        row[rb + n] = ((score + 2000) << 16) | (c * 8 + NOMINATION_NONE);
        n++;
    }
    return n;
}

/* Tricks each side is sure of: a hand's power cards (free jokers, then trumps) above every
 * power card of the other side each win the trick they fall to, in different tricks, and
 * every card is played by the end; the hand with the most of them counts. *used: the
 * counted cards of that hand (their ranks read down to the lowest: the cards above it are
 * that side's), none when the other side holds no power (the shape says so). */
KI void K(sure_tricks)(const uint64_t *h, const int64_t *st, int64_t trump, uint64_t out,
                       uint64_t side1, int64_t *sc, int64_t *sd, uint64_t *used)
{
    *sc = 0;
    *sd = 0;
    *used = 0;
    const uint64_t jk = out & h[H_SUIT + 4];
    const uint64_t tr = trump >= 0 ? out & h[H_SUIT + trump] : 0;
    if ((jk | tr) == 0)
        return;
    const int64_t P = st[S_P];
    /* the side holding the highest power card is the only one with sure tricks */
    const uint64_t top = jk ? (uint64_t)1 << (63 - K(clz)(jk))
                            : (uint64_t)1 << (63 - K(clz)(tr));
    const int64_t winner = (side1 & top) != 0;
    const uint64_t theirs = winner ? out & ~side1 : side1;
    uint64_t above;
    int shape_only = 0;
    if (theirs & jk) {
        above = jk & K(bits_above)(63 - K(clz)(theirs & jk));
    } else if (theirs & tr) {
        above = jk | (tr & K(bits_above)(63 - K(clz)(theirs & tr)));
    } else {
        above = jk | tr;
        shape_only = 1;
    }
    int64_t best = 0;
    uint64_t best_cards = 0;
    for (int64_t i = 0; i < P; i++) {
        if ((st[O_SIDE + i] == 1) != winner)
            continue;
        uint64_t mine = h[i] & above;
        int64_t k = K(popcount)(mine);
        if (k > best) {
            best = k;
            best_cards = mine;
        }
    }
    if (best == 1 && jk == 0 && (st[S_NOQUICK] & 8) == 0) {
        /* two hands of the side each hold one of those trumps, one of them another trump
         * too: they win two tricks (only a trump lead to two lone trumps would make them
         * fall together) */
        uint64_t two = 0;
        int64_t hands = 0, spare = 0;
        for (int64_t i = 0; i < P; i++) {
            if ((st[O_SIDE + i] == 1) != winner || (h[i] & above) == 0)
                continue;
            hands++;
            two |= h[i] & above;
            if (K(popcount)(h[i] & tr) >= 2)
                spare = 1;
        }
        if (hands >= 2 && spare) {
            best = 2;
            best_cards = two;
        }
    }
    *used = shape_only ? 0 : best_cards;
    if (winner)
        *sc = best;
    else
        *sd = best;
}

/* Quick tricks of hand x cashing from the top of each plain suit (0..3, the trump suit
 * too; so[s]: the suit's cards out, top[s]: its highest): cnt[s] tricks, bits[s] the cards
 * whose ranks that read. A run of x's cards above every other card of the suit wins as
 * many tricks as it is long, and every card x holds in the suit when no other hand holds
 * more cards of it than the run (they are out of the suit by then; long: whether to look,
 * else the run only); a suit x holds entirely counts whole and is read from the shape (no
 * bits). No power card of another hand is considered here (see quick_tricks). Returns the
 * sum of cnt. */
KI int64_t K(suit_runs)(const uint64_t *h, const uint64_t *so, const uint64_t *top, int64_t x,
                        int64_t P, int long_, int64_t *cnt, uint64_t *bits)
{
    const uint64_t mine = h[x];
    int64_t sum = 0;
    for (int64_t s = 0; s < 4; s++) {
        cnt[s] = 0;
        bits[s] = 0;
        if ((mine & top[s]) == 0)
            continue;
        const uint64_t xs = so[s] & mine;
        const uint64_t rest = so[s] & ~mine;
        const int64_t len = K(popcount)(xs);
        if (rest == 0) {
            cnt[s] = len;
            sum += len;
            continue;
        }
        const uint64_t run = so[s] & K(bits_above)(63 - K(clz)(rest));
        const int64_t r = K(popcount)(run);
        cnt[s] = r;
        bits[s] = run;
        if (long_ && r < len) {
            int64_t longest = 0;
            for (int64_t j = 0; j < P; j++) {
                int64_t lj = j == x ? 0 : K(popcount)(h[j] & so[s]);
                if (lj > longest)
                    longest = lj;
            }
            if (r >= longest)
                cnt[s] = len;
        }
        sum += cnt[s];
    }
    return sum;
}

/* The suits of cnt/bits that reach need tricks from have (the shape-only suits first, then
 * the most tricks first; first: a suit always taken, before any other, -1 none): the cards
 * to mark in *used; whether need was reached. */
KI int K(pick_suits)(const int64_t *cnt, const uint64_t *bits, int64_t have, int64_t need,
                     int64_t first, uint64_t *used)
{
    int64_t left[4];
    for (int64_t s = 0; s < 4; s++) {
        left[s] = cnt[s];
        if (cnt[s] > 0 && bits[s] == 0) {
            have += cnt[s];
            left[s] = 0;
        }
    }
    if (first >= 0 && left[first] > 0) {
        have += left[first];
        *used |= bits[first];
        left[first] = 0;
    }
    while (have < need) {
        int64_t b = -1;
        for (int64_t s = 0; s < 4; s++)
            if (left[s] > 0 && (b < 0 || left[s] > left[b]))
                b = s;
        if (b < 0)
            return 0;
        have += left[b];
        *used |= bits[b];
        left[b] = 0;
    }
    return 1;
}

/* Whether the side of the player p on lead takes at least need tricks by quick tricks (not
 * in misère; side1: the cards of the contracting side), in one of two lines:
 * - p cashes its own (suit_runs) in the plain suits, each as far as every other hand
 *   holding power must follow it (in no trumps a partner's free joker does not count: it
 *   is never forced onto p's trick before the last one), then its free jokers when no
 *   opponent holds one (each wins the trick it falls to);
 * - when no opponent holds power (in a suit contract: no hand but q, or no hand but p):
 *   p cashes some of its own (all its trumps first, when it holds them), then leads a suit
 *   in which a partner q holds the top card, and q cashes its own and its free jokers;
 *   p's tricks count only as far as q holds cards it can spare for them (neither a counted
 *   winner nor a joker), so that q keeps every winner it cashes, and p has no trump left
 *   to ruff them with.
 * *used: the cards whose ranks that read (the fewest suits, see pick_suits). */
KI int K(quick_tricks)(const uint64_t *h, const int64_t *st, int64_t trump, uint64_t out,
                       uint64_t side1, int64_t p, int64_t P, int64_t need, uint64_t *used)
{
    const uint64_t mine = h[p];
    uint64_t so[4], top[4];
    uint64_t tops = 0;
    for (int64_t s = 0; s < 4; s++) {
        so[s] = out & h[H_SUIT + s];
        top[s] = so[s] ? (uint64_t)1 << (63 - K(clz)(so[s])) : 0;
        tops |= top[s];
    }
    const uint64_t free = out & h[H_SUIT + 4];
    const uint64_t power = free | (trump >= 0 ? so[trump] : 0);
    const int64_t side_p = st[O_SIDE + p];
    const uint64_t opps = side_p == 1 ? out & ~side1 : side1;
    const uint64_t partners = out & ~opps & ~mine;
    /* nothing to cash: neither p nor a partner holds a top card or a free joker */
    if (((tops | free) & ~opps) == 0)
        return 0;
    *used = 0;
    /* the hands whose power can stop p's side suits: in no trumps the opponents' */
    const uint64_t stoppers = power & ~mine & (trump >= 0 ? out : opps);
    int64_t cnt[4], cq[4];
    uint64_t bits[4], bq[4];
    const int64_t jokers = (opps & free) == 0 ? K(popcount)(mine & free) : 0;
    /* a stopper holds no more cards of a side suit than its longest holder: the run is
     * all p can cash there (the trump suit excepted) */
    int64_t most = jokers;
    if (mine & tops) {
        most += K(suit_runs)(h, so, top, p, P, stoppers == 0, cnt, bits);
        if (stoppers && trump >= 0 && cnt[trump] > 0)
            most += K(popcount)(mine & so[trump]) - cnt[trump];
    }
    if (most >= need) {
        if (stoppers) {
            if (trump >= 0 && cnt[trump] > 0) {
                int64_t t[4];
                uint64_t tb[4];
                K(suit_runs)(h, so, top, p, P, 1, t, tb);
                cnt[trump] = t[trump];
            }
            for (int64_t j = 0; j < P; j++) {
                if ((h[j] & stoppers) == 0)
                    continue;
                for (int64_t s = 0; s < 4; s++) {
                    if (s == trump || cnt[s] == 0)
                        continue;
                    int64_t len = K(popcount)(h[j] & so[s]);
                    if (len < cnt[s])
                        cnt[s] = len;
                }
            }
        }
        if (K(pick_suits)(cnt, bits, jokers, need, -1, used))
            return 1;
        *used = 0;
    }
    /* p's trumps: when p holds every trump out, it cashes them all first (q holds none to
     * overtake them, and p none left to ruff q's winners with) */
    const uint64_t ptr = trump >= 0 ? mine & power : 0;
    if ((tops & partners) == 0 || (opps & power) != 0 || (ptr != 0 && (power & ~mine) != 0))
        return 0;
    const int64_t tp = K(popcount)(ptr);
    /* p's own tricks uncapped: only q (or p) can hold power now, and q spares for them */
    int64_t own = K(suit_runs)(h, so, top, p, P, 1, cnt, bits);
    for (int64_t q = 0; q < P; q++) {
        const uint64_t hq = h[q];
        if ((hq & partners & tops) == 0)
            continue;
        if (trump >= 0 && ptr == 0 && (power & ~hq) != 0)
            continue;
        int64_t entry = -1;
        for (int64_t s = 0; s < 4; s++)
            if ((hq & top[s]) != 0 && (mine & so[s]) != 0)
                entry = s;
        if (entry < 0)
            continue;
        const int64_t jq = K(popcount)(hq & free);
        const int64_t theirs = jq + K(suit_runs)(h, so, top, q, P, 1, cq, bq);
        const int64_t spare = K(popcount)(hq) - theirs;
        const int64_t cash = own < spare ? own : spare;
        if (theirs + cash < need || cash < tp)
            continue;
        uint64_t u = 0;
        if (tp > 0 || !K(pick_suits)(cq, bq, jq, need, entry, &u)) {
            /* every suit of q, then p's (as many of p's tricks as q can spare: checked) */
            for (int64_t s = 0; s < 4; s++)
                u |= bq[s];
            K(pick_suits)(cnt, bits, theirs, need, -1, &u);
        }
        *used = u;
        return 1;
    }
    return 0;
}

/* DDS's later tricks, for a side that needs every trick left (not in misère): with no
 * power card out (no free joker, no trump), every trick it takes is of a suit whose top
 * card it holds (else the holder of the top plays it), and every trick of a suit takes a
 * card of it from each of its hands that still holds one, so it takes at most the sum,
 * over the suits whose top card it holds, of its longest holding there. Whether that sum
 * is short of left (xs: the cards of that side); *used: the top cards of the other side
 * in the suits that side holds cards of (were they its own, the sum could be more). */
KI int K(later_short)(const uint64_t *h, const int64_t *st, uint64_t out, uint64_t xs,
                      int64_t left, uint64_t *used)
{
    const int64_t P = st[S_P];
    const int64_t trump = st[S_TRUMP];
    if ((out & h[H_SUIT + 4]) != 0 || (trump >= 0 && (out & h[H_SUIT + trump]) != 0))
        return 0;
    int64_t sum = 0;
    uint64_t tops = 0;
    for (int64_t s = 0; s < 4; s++) {
        const uint64_t so = out & h[H_SUIT + s];
        if (so == 0)
            continue;
        const uint64_t top = (uint64_t)1 << (63 - K(clz)(so));
        if ((xs & top) == 0) {
            if (xs & so)
                tops |= top;
            continue;
        }
        int64_t longest = 0;
        for (int64_t i = 0; i < P; i++) {
            const int64_t li = K(popcount)(h[i] & xs & so);
            if (li > longest)
                longest = li;
        }
        sum += longest;
        if (sum >= left)
            return 0;
    }
    *used = tops;
    return 1;
}

/* Whether the misère contractor can take no further trick whatever the defenders do. */
KI int K(misere_safe)(const uint64_t *h, const int64_t *st, int64_t p, uint64_t contractor,
                      uint64_t defenders, uint64_t *used_out)
{
    *used_out = 0;
    if (contractor & h[H_SUIT + 4])
        return 0;
    int exit_suit = 0;
    uint64_t used = 0;
    for (int64_t s = 0; s < 4; s++) {
        uint64_t cs = contractor & h[H_SUIT + s];
        uint64_t ds = defenders & h[H_SUIT + s];
        if (cs == 0 || ds == 0)
            continue;
        int64_t top = 63 - K(clz)(cs);
        if (top > K(ctz)(ds))
            return 0;
        used |= (uint64_t)1 << top;
        exit_suit = 1;
    }
    if (st[O_SIDE + p] == 1 && !exit_suit)
        return 0;
    *used_out = used;
    return 1;
}

/* Tricks the misère contractor must take whatever it does (see engine.py). */
KI int64_t K(misere_forced)(const uint64_t *h, const int64_t *st, int64_t p,
                            uint64_t contractor, uint64_t defenders, int64_t left,
                            uint64_t *used_out)
{
    *used_out = 0;
    if (defenders & h[H_SUIT + 4])
        return 0;
    int on_lead = st[O_SIDE + p] == 1;
    uint64_t used = 0, one = 0;
    int all_high = 1;
    for (int64_t s = 0; s < 4; s++) {
        uint64_t cs = contractor & h[H_SUIT + s];
        if (cs == 0)
            continue;
        uint64_t ds = defenders & h[H_SUIT + s];
        int64_t low = K(ctz)(cs);
        int high = ds == 0 || (63 - K(clz)(ds)) < low;
        if (!high) {
            if (on_lead)
                return 0;
            all_high = 0;
            continue;
        }
        used |= (uint64_t)1 << low;
        if (!on_lead && one == 0 && (h[p] & ds) != 0)
            one = (uint64_t)1 << low;
    }
    if (on_lead || (all_high && one)) {
        /* on lead, or put on lead by a defender's lead of a suit it must win: every suit
         * it holds wins every trick */
        *used_out = used;
        return left;
    }
    if (one) {
        *used_out = one;
        return 1;
    }
    return 0;
}

/* At a trick start in misère, the lone contractor (hand cq, no free joker) and the next
 * trick: 0 it surely loses it, 1 it surely takes it, -1 the play decides. Led a suit it
 * holds, its lowest card there loses when a defender holding the suit holds none lower
 * (it must play one above), or a defender void in it holds a free joker (it must play
 * that); else every defender plays under it and it takes the trick. On lead, it loses
 * the trick when some suit of its own loses so; a defender on lead leads a suit of its
 * own or a free joker, and the contractor loses every such lead (void, it discards), or
 * takes one of them. all: the contractor needs every trick left, 0 then also when it
 * cannot take the next two (see below). *used: the contractor's lowest card of each suit
 * that decided. */
KI int K(misere_next)(const uint64_t *h, const int64_t *st, int64_t p, int64_t cq,
                      int all, uint64_t *used)
{
    const int64_t P = st[S_P];
    const uint64_t free = h[H_SUIT + 4];
    const uint64_t mine = h[cq];
    if (mine & free)
        return -1;
    uint64_t joker_void = 0; /* defenders' free jokers */
    for (int64_t j = 0; j < P; j++)
        if (j != cq)
            joker_void |= h[j] & free;
    uint64_t esc = 0, take = 0;
    int lose_all = 1;
    if (all && p != cq && (st[S_NOQUICK] & 64) == 0) {
        /* a defender holds cards of a suit, all above the contractor's lowest there, and
         * keeps one through this trick: the contractor cannot take the next two tricks
         * (led now, it loses this one; else, should it take it, it leads that card and
         * loses the next) */
        int64_t leads = (h[p] & free) ? 15 : 0; /* the suits the leader can lead */
        int64_t holds[8];
        for (int64_t j = 0; j < P; j++) {
            holds[j] = 0;
            for (int64_t s = 0; s < 4; s++)
                if (h[j] & h[H_SUIT + s])
                    holds[j] |= (int64_t)1 << s;
        }
        leads |= holds[p];
        for (int64_t s = 0; s < 4; s++) {
            const uint64_t cs = mine & h[H_SUIT + s];
            if (cs == 0)
                continue;
            const int64_t low = K(ctz)(cs);
            const int64_t other = leads & ~((int64_t)1 << s);
            for (int64_t j = 0; j < P; j++) {
                const uint64_t js = h[j] & h[H_SUIT + s];
                if (j == cq || js == 0 || K(ctz)(js) <= low)
                    continue;
                /* it keeps one of them: two or more, or it leads, or it follows every
                 * other suit the leader can lead */
                if (K(popcount)(js) >= 2 || j == p || (other & ~holds[j]) == 0) {
                    *used = (uint64_t)1 << low;
                    return 0;
                }
            }
        }
    }
    for (int64_t s = 0; s < 4; s++) {
        const uint64_t suit = h[H_SUIT + s];
        const uint64_t cs = mine & suit;
        const int leadable = p == cq ? cs != 0 : (h[p] & suit) != 0;
        if (!leadable)
            continue;
        if (cs == 0)
            continue; /* a defender leads it, the contractor discards */
        const int64_t low = K(ctz)(cs);
        int beaten = 0;
        for (int64_t j = 0; j < P && !beaten; j++) {
            if (j == cq)
                continue;
            const uint64_t js = h[j] & suit;
            if (js ? K(ctz)(js) > low : (h[j] & joker_void) != 0)
                beaten = 1;
        }
        if (beaten) {
            if (esc == 0 && p == cq) {
                *used = (uint64_t)1 << low;
                return 0;
            }
            esc |= (uint64_t)1 << low;
        } else {
            if (p != cq) {
                *used = (uint64_t)1 << low;
                return 1;
            }
            take |= (uint64_t)1 << low;
            lose_all = 0;
        }
    }
    if (p == cq) {
        *used = take;
        return 1;
    }
    *used = esc;
    return lose_all ? 0 : -1;
}

/* A card's power in a trick of suit led (class << 6 | card: a free joker, a trump, a card
 * of the suit led; -1: it cannot win), and the best card hand m may play to it. */
KI int64_t K(trick_key)(int64_t c, int64_t s, int64_t led, int64_t trump)
{
    if (s == 4)
        return 192 + c;
    if (s == trump)
        return 128 + c;
    return s == led ? 64 + c : -1;
}

KI int64_t K(best_play)(const uint64_t *h, uint64_t m, int64_t led, int64_t trump)
{
    const uint64_t follow = m & h[H_SUIT + led];
    if (follow)
        return (led == trump ? 128 : 64) + 63 - K(clz)(follow);
    const uint64_t jk = m & h[H_SUIT + 4];
    if (jk)
        return 192 + 63 - K(clz)(jk);
    const uint64_t tr = trump >= 0 ? m & h[H_SUIT + trump] : 0;
    return tr ? 128 + 63 - K(clz)(tr) : -1;
}

/* The side (0, 1) that takes the trick in progress (not in misère): the side whose best
 * card, played or still to come, beats every card the other side has played or can play;
 * *rel: that card's bit when the other side's best is of its suit (its rank decides). */
KI int64_t K(trick_taker)(const uint64_t *h, const int64_t *st, int64_t d, uint64_t *rel)
{
    const int64_t P = st[S_P], tcount = st[S_TCOUNT], led = st[S_LED], trump = st[S_TRUMP];
    int64_t best[2] = {-1, -1};
    for (int64_t i = d - tcount; i < d; i++) {
        const int64_t c = st[O_TC + i];
        const int64_t b = K(trick_key)(c, st[O_CSUIT + c], led, trump);
        const int64_t si = st[O_SIDE + st[O_TP + i]];
        if (b > best[si])
            best[si] = b;
    }
    int64_t q = st[S_TOMOVE];
    for (int64_t k = tcount; k < P; k++) {
        const int64_t b = K(best_play)(h, h[q], led, trump);
        const int64_t sq = st[O_SIDE + q];
        if (b > best[sq])
            best[sq] = b;
        q = q + 1 < P ? q + 1 : 0;
    }
    const int64_t t = best[1] > best[0];
    *rel = (best[t] >> 6) == (best[!t] >> 6) ? (uint64_t)1 << (best[t] & 63) : 0;
    return t;
}

/* In misère, a lone contractor's fate in the trick in progress: 1 it takes the trick
 * whatever is played (its card, played or every legal one, beats all the trick holds and
 * no defender still to play can beat it), 0 it does not (a card played beats its own, or
 * it holds a legal card under the trick's winner), -1 play decides. *rel: the higher card
 * of the comparison that decided, when both are of one suit. */
KI int K(misere_trick)(const uint64_t *h, const int64_t *st, int64_t d, uint64_t *rel)
{
    const int64_t P = st[S_P], tcount = st[S_TCOUNT], led = st[S_LED];
    *rel = 0;
    const int64_t wi = st[O_WIN + d - 1];
    const int64_t w = st[O_TC + wi];
    const int64_t wk = K(trick_key)(w, st[O_CSUIT + w], led, -1);
    /* the best card a defender still to play can play, and the contractor still to play */
    int64_t dmax = -1, cq = -1;
    int64_t q = st[S_TOMOVE];
    for (int64_t k = tcount; k < P; k++) {
        if (st[O_SIDE + q] == 1) {
            cq = q;
        } else {
            const int64_t b = K(best_play)(h, h[q], led, -1);
            if (b > dmax)
                dmax = b;
        }
        q = q + 1 < P ? q + 1 : 0;
    }
    int64_t cl; /* the contractor's card: played and winning, or its lowest legal one */
    if (cq < 0) {
        if (st[O_SIDE + st[O_TP + wi]] != 1) {
            /* its card lost to w: w's rank decided when both follow the suit led */
            *rel = (wk >> 6) == 1 ? (uint64_t)1 << w : 0;
            return 0;
        }
        cl = wk;
    } else {
        const uint64_t hand = h[cq];
        uint64_t legal = hand & h[H_SUIT + led];
        if (legal == 0)
            legal = hand & h[H_SUIT + 4];
        if (legal == 0)
            return 0; /* a discard loses */
        const int64_t c = K(ctz)(legal);
        cl = K(trick_key)(c, st[O_CSUIT + c], led, -1);
        if (cl < wk) {
            *rel = (cl >> 6) == (wk >> 6) ? (uint64_t)1 << w : 0;
            return 0;
        }
    }
    if (dmax > cl)
        return -1;
    /* cl's rank (no defender's card above it), and w's when the contractor is still to
     * play (none of its cards under w) */
    *rel = (uint64_t)1 << (cl & 63);
    if (cq >= 0 && (cl >> 6) == (wk >> 6))
        *rel |= (uint64_t)1 << w;
    return 1;
}

/* column of shape word k in a key */
KI int64_t K(shcol)(int64_t k) { return k < 2 ? 2 + k : 9 + k; }

/* the cards still out from the top of each suit down to its lowest card in w */
KI uint64_t K(prefix_mask)(uint64_t w, uint64_t out, const uint64_t *h)
{
    uint64_t m = 0;
    for (int64_t s = 0; s < 5; s++) {
        uint64_t ws = w & h[H_SUIT + s];
        if (ws)
            m |= out & h[H_SUIT + s] & ~K(bits_below)(K(ctz)(ws));
    }
    return m;
}

/* Can the contracting side take at least target more tricks (counting the trick in
 * progress) with best play by all? Leaves the relevant cards of the proof in h[H_W + d]. */
static KT int K(search)(const Ctx *x, int64_t target, int64_t d)
{
    uint64_t *h = x->h;
    int64_t *st = x->st;
    int64_t *buf = x->buf;
    uint64_t *ttk = x->ttk;
    uint64_t *ttc = x->ttc;
    const int64_t left = st[S_LEFT];
    if (target <= 0) {
        h[H_W + d] = 0;
        return 1;
    }
    if (target > left) {
        h[H_W + d] = 0;
        return 0;
    }
    st[S_NODES] += 1;
    const int64_t P = st[S_P];
    const int64_t tcount = st[S_TCOUNT];
    const int64_t p = st[S_TOMOVE];
    const int64_t misere = st[S_MISERE];
    const int64_t trump = st[S_TRUMP];
    uint64_t out = 0;
    for (int64_t i = 0; i < P; i++)
        out |= h[i];
    const int64_t kb = H_KEY + KEY_WORDS * d;
    const int64_t nrel = P - 1;
    const int64_t nshape = (P - 2) / 3 + 2;
    const uint64_t gen = (uint64_t)st[S_GEN];
    const int64_t tmask = x->tmask;
    int64_t base = 0;
    uint64_t check = 0;
    if (tcount == 0) {
        if (left == 1) {
            for (int64_t i = 0; i < P; i++) {
                int64_t q = p + i;
                if (q >= P)
                    q -= P;
                st[O_TC + d + i] = K(ctz)(h[q]);
                st[O_TP + d + i] = q;
            }
            int64_t led = st[O_CSUIT + st[O_TC + d]];
            uint64_t wrel;
            int64_t wi = K(winner_p)(st, d, P, led, trump, &wrel);
            h[H_W + d] = wrel;
            return st[O_SIDE + st[O_TP + wi]] >= target;
        }
        for (int64_t j = 0; j < nrel; j++)
            h[kb + K_REL + j] = K(pext)(h[j], out);
        for (int64_t k = 0; k < nshape; k++)
            h[kb + K(shcol)(k)] = 0;
        int64_t last = nshape - 1;
        for (int64_t j = 0; j < nrel; j++) {
            uint64_t v = 0;
            for (int64_t s = 0; s < 5; s++)
                v |= (uint64_t)K(popcount)(h[j] & h[H_SUIT + s]) << (4 * s);
            h[kb + K(shcol)(j / 3)] |= v << (20 * (j % 3));
        }
        uint64_t z = 0;
        for (int64_t s = 0; s < 5; s++)
            z |= (uint64_t)K(popcount)(out & h[H_SUIT + s]) << (5 * s);
        z |= (uint64_t)p << 25;
        if (out & h[H_SUIT + 4]) {
            if (st[S_JLMODE] == 1) {
                uint64_t v = 0;
                for (int64_t j = 0; j < P; j++)
                    v |= (uint64_t)st[O_VOID + j] << (4 * j);
                z |= v << 28;
            } else {
                z |= (uint64_t)st[S_SUITSLED] << 28;
            }
        }
        h[kb + K(shcol)(last)] = z;
        uint64_t xh = 0;
        for (int64_t k = 0; k < nshape; k++) {
            xh = (xh ^ h[kb + K(shcol)(k)]) * M1;
            xh ^= xh >> 29;
        }
        base = (int64_t)(xh & (uint64_t)tmask);
        check = (gen << 32) | (xh >> 32);
        __builtin_prefetch(ttc + base, 0, 3);
        __builtin_prefetch(ttk + base * KEY_WORDS, 0, 3);
        int64_t sc, sd;
        uint64_t used;
        uint64_t side1 = 0;
        for (int64_t i = 0; i < P; i++)
            if (st[O_SIDE + i] == 1)
                side1 |= h[i];
        K(sure_tricks)(h, st, trump, out, side1, &sc, &sd, &used);
        if (sc >= target) {
            h[H_W + d] = used;
            return 1;
        }
        if (left - sd < target) {
            h[H_W + d] = used;
            return 0;
        }
        if (misere == 0 && (st[S_NOQUICK] & 1) == 0) {
            uint64_t qused;
            int64_t need = st[O_SIDE + p] == 1 ? target : left - target + 1;
            if (K(quick_tricks)(h, st, trump, out, side1, p, P, need, &qused)) {
                h[H_W + d] = qused;
                return st[O_SIDE + p] == 1;
            }
        }
        if (misere == 0 && (target == left || target == 1) && (st[S_NOQUICK] & 4) == 0) {
            uint64_t lused;
            const int all1 = target == left;
            if (K(later_short)(h, st, out, all1 ? side1 : out & ~side1, left, &lused)) {
                h[H_W + d] = lused;
                return !all1;
            }
        }
        if (misere == 1) {
            uint64_t contractor = 0;
            int64_t alone = 0;
            for (int64_t j = 0; j < P; j++) {
                if (st[O_SIDE + j] == 1) {
                    contractor = h[j];
                    alone++;
                }
            }
            if (alone == 1) {
                uint64_t defenders = out & ~contractor;
                if (K(misere_safe)(h, st, p, contractor, defenders, &used)) {
                    h[H_W + d] = used;
                    return 0;
                }
                int64_t forced = K(misere_forced)(h, st, p, contractor, defenders, left, &used);
                if (forced >= target) {
                    h[H_W + d] = used;
                    return 1;
                }
                if ((target == left || target == 1) && (st[S_NOQUICK] & 32) == 0) {
                    int64_t cq = 0;
                    while (st[O_SIDE + cq] != 1)
                        cq++;
                    const int t = K(misere_next)(h, st, p, cq, target == left, &used);
                    if (t >= 0 && (t == 1 ? target == 1 : target == left)) {
                        h[H_W + d] = used;
                        return t;
                    }
                }
            }
        }
        for (int64_t k = 0; k < PROBE; k++) {
            int64_t slot = (base + k) & tmask;
            uint64_t c0 = ttc[slot];
            if ((c0 >> 32) != gen)
                break;
            if (c0 != check)
                continue;
            const uint64_t *row = ttk + slot * KEY_WORDS;
            int same = 1;
            for (int64_t i = 0; i < nshape; i++) {
                if (row[K(shcol)(i)] != h[kb + K(shcol)(i)]) {
                    same = 0;
                    break;
                }
            }
            if (!same)
                continue;
            uint64_t mk = row[K_MASK];
            for (int64_t i = K_REL; i < K_REL + nrel; i++) {
                if ((row[i] ^ h[kb + i]) & mk) {
                    same = 0;
                    break;
                }
            }
            if (!same)
                continue;
            int64_t data = (int64_t)row[K_DATA];
            if ((data & 255) >= target) {
                h[H_W + d] = K(pdep)(mk, out);
                st[S_HITS] += 1;
                return 1;
            }
            if (((data >> 8) & 255) < target) {
                h[H_W + d] = K(pdep)(mk, out);
                st[S_HITS] += 1;
                return 0;
            }
        }
    } else if (misere == 1 && (target == 1 || target == left) && (st[S_NOQUICK] & 16) == 0 &&
               x->lone) {
        /* the trick in progress is the one the contractor must take, or must not lose */
        uint64_t rel;
        const int t = K(misere_trick)(h, st, d, &rel);
        if (t >= 0 && (t == 1 ? target == 1 : target == left)) {
            h[H_W + d] = rel;
            return t;
        }
    } else if (misere == 0 && (target == 1 || target == left) && (st[S_NOQUICK] & 2) == 0) {
        /* the trick in progress is the one the side short of a trick needs, or the one the
         * other side must not lose */
        uint64_t rel;
        const int64_t t = K(trick_taker)(h, st, d, &rel);
        if (t == 1 ? target == 1 : target == left) {
            h[H_W + d] = rel;
            return t;
        }
    }
    const uint64_t hand = h[p];
    const int64_t start = d - tcount;
    uint64_t others = out & ~hand;
    for (int64_t i = start; i < d; i++)
        others |= (uint64_t)1 << st[O_TC + i];
    const int64_t rb = d * MAX_MOVES;
    const int64_t n = K(gen_moves)(h, st, buf, rb, d, 1, others);
    const int64_t side_p = st[O_SIDE + p];
    const int maxim = (side_p ^ misere) == 1;
    int result = !maxim;
    uint64_t wall = 0;
    const int64_t old_led = st[S_LED];
    const int64_t old_led_mask = st[S_SUITSLED];
    const int64_t old_void = st[O_VOID + p];
    uint64_t same = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t k = rb + i;
        for (int64_t j = rb + i + 1; j < rb + n; j++)
            if (buf[j] > buf[k])
                k = j;
        int64_t mv = buf[k];
        buf[k] = buf[rb + i];
        buf[rb + i] = mv;
        mv &= 0xFFFF;
        int64_t c = mv >> 3;
        int64_t nom = mv & 7;
        uint64_t bit = (uint64_t)1 << c;
        if (same & bit)
            continue;
        int64_t cs = st[O_CSUIT + c];
        h[p] = hand ^ bit;
        int64_t led;
        if (tcount == 0) {
            led = cs == 4 ? nom : cs;
            st[S_LED] = led;
            st[S_SUITSLED] = old_led_mask | ((int64_t)1 << led);
        } else {
            led = old_led;
            if (cs != led)
                st[O_VOID + p] = old_void | ((int64_t)1 << led);
        }
        st[O_TC + d] = c;
        st[O_TP + d] = p;
        K(track)(st, d, tcount, led, trump);
        int r;
        uint64_t wc;
        if (tcount + 1 == P) {
            int64_t wi = st[O_WIN + d];
            uint64_t wrel = st[O_WREL + d] == 1 ? ((uint64_t)1 << st[O_TC + wi]) : 0;
            int64_t w = st[O_TP + wi];
            st[S_TCOUNT] = 0;
            st[S_TOMOVE] = w;
            st[S_LEFT] = left - 1;
            r = K(search)(x, target - st[O_SIDE + w], d + 1);
            st[S_LEFT] = left;
            wc = h[H_W + d + 1] | wrel;
        } else {
            st[S_TCOUNT] = tcount + 1;
            st[S_TOMOVE] = p + 1 < P ? p + 1 : 0;
            r = K(search)(x, target, d + 1);
            wc = h[H_W + d + 1];
        }
        st[S_TCOUNT] = tcount;
        st[S_TOMOVE] = p;
        st[S_LED] = old_led;
        st[S_SUITSLED] = old_led_mask;
        st[O_VOID + p] = old_void;
        h[p] = hand;
        if (cs < 4) {
            uint64_t sw = wc & h[H_SUIT + cs];
            if (sw) {
                uint64_t above = others & h[H_SUIT + cs] & K(bits_above)(c);
                uint64_t run;
                if (above) {
                    run = hand & h[H_SUIT + cs] & K(bits_below)(K(ctz)(above));
                    run &= ~K(bits_below)(c);
                } else {
                    run = hand & h[H_SUIT + cs] & ~K(bits_below)(c);
                }
                if (sw & ~K(bits_above)(63 - K(clz)(run)))
                    wc |= run;
            }
        } else {
            wc |= hand & h[H_SUIT + 4];
        }
        if (r == maxim) {
            result = r;
            wall = wc;
            break;
        }
        wall |= wc;
        if (cs < 4) {
            uint64_t suit = hand & h[H_SUIT + cs];
            uint64_t sw = wc & h[H_SUIT + cs];
            if (sw == 0) {
                same |= suit;
            } else {
                int64_t low = K(ctz)(sw);
                if (c < low)
                    same |= suit & K(bits_below)(low);
            }
        }
    }
    if (tcount == 0) {
        wall &= out;
        uint64_t mabs = st[S_EXACT] == 0 ? K(prefix_mask)(wall, out, h) : out;
        uint64_t mrel = K(pext)(mabs, out);
        wall = mabs;
        int64_t slot = -1, s2 = 0;
        int found = 0;
        for (int64_t k = 0; k < PROBE; k++) {
            s2 = (base + k) & tmask;
            uint64_t c0 = ttc[s2];
            if ((c0 >> 32) != gen) {
                slot = s2;
                found = 1;
                break;
            }
            const uint64_t *row = ttk + s2 * KEY_WORDS;
            if (c0 != check || row[K_MASK] != mrel)
                continue;
            int eq = 1;
            for (int64_t i = 0; i < nshape; i++) {
                if (row[K(shcol)(i)] != h[kb + K(shcol)(i)]) {
                    eq = 0;
                    break;
                }
            }
            if (!eq)
                continue;
            for (int64_t i = K_REL; i < K_REL + nrel; i++) {
                if ((row[i] ^ h[kb + i]) & mrel) {
                    eq = 0;
                    break;
                }
            }
            if (eq) {
                found = 1;
                break;
            }
        }
        if (!found)
            slot = (base + (st[S_NODES] & (PROBE - 1))) & tmask;
        int64_t data;
        if (slot >= 0) {
            uint64_t *row = ttk + slot * KEY_WORDS;
            ttc[slot] = check;
            for (int64_t i = 2; i < KEY_WORDS; i++)
                row[i] = h[kb + i];
            row[K_MASK] = mrel;
            data = left << 8;
        } else {
            slot = s2;
            data = (int64_t)ttk[slot * KEY_WORDS + K_DATA];
        }
        int64_t lo = data & 255;
        int64_t hi = (data >> 8) & 255;
        if (result) {
            if (target > lo)
                lo = target;
        } else if (target - 1 < hi) {
            hi = target - 1;
        }
        ttk[slot * KEY_WORDS + K_DATA] = (uint64_t)(lo | (hi << 8));
    }
    h[H_W + d] = wall;
    return result;
}

/* As solve_dense (trick tracking set), stepping one trick at a time from guess. */
static KT int64_t K(solve_from)(const Ctx *x, int64_t lo, int64_t hi, int64_t d,
                                int64_t guess)
{
    int64_t t = guess;
    while (lo < hi) {
        if (t <= lo)
            t = lo + 1;
        if (t > hi)
            t = hi;
        if (K(search)(x, t, d)) {
            lo = t;
            t++;
        } else {
            hi = t - 1;
            t--;
        }
    }
    return lo;
}

/* The contracting side's further tricks when every player plays the move the search
 * orders first (no search): the first guess of solve_dense. Leaves the position as it was. */
static KT int64_t K(greedy)(const Ctx *x, int64_t d)
{
    uint64_t *h = x->h;
    int64_t *st = x->st;
    int64_t *buf = x->buf;
    const int64_t P = st[S_P];
    const int64_t trump = st[S_TRUMP];
    uint64_t hands[8];
    int64_t voids[8];
    for (int64_t i = 0; i < P; i++) {
        hands[i] = h[i];
        voids[i] = st[O_VOID + i];
    }
    const int64_t s_tcount = st[S_TCOUNT], s_led = st[S_LED], s_tomove = st[S_TOMOVE];
    const int64_t s_left = st[S_LEFT], s_suitsled = st[S_SUITSLED];
    int64_t won = 0;
    while (st[S_LEFT] > 0 && d < MAX_DEPTH - 1) {
        const int64_t p = st[S_TOMOVE];
        const int64_t tcount = st[S_TCOUNT];
        const uint64_t hand = h[p];
        uint64_t others = 0;
        for (int64_t i = 0; i < P; i++)
            others |= h[i];
        others &= ~hand;
        for (int64_t i = d - tcount; i < d; i++)
            others |= (uint64_t)1 << st[O_TC + i];
        const int64_t rb = d * MAX_MOVES;
        const int64_t n = K(gen_moves)(h, st, buf, rb, d, 1, others);
        if (n == 0)
            break;
        int64_t best = buf[rb];
        for (int64_t i = 1; i < n; i++)
            if (buf[rb + i] > best)
                best = buf[rb + i];
        const int64_t mv = best & 0xFFFF;
        const int64_t c = mv >> 3, nom = mv & 7;
        const int64_t cs = st[O_CSUIT + c];
        h[p] = hand ^ ((uint64_t)1 << c);
        int64_t led;
        if (tcount == 0) {
            led = cs == 4 ? nom : cs;
            st[S_LED] = led;
            st[S_SUITSLED] |= (int64_t)1 << led;
        } else {
            led = st[S_LED];
            if (cs != led)
                st[O_VOID + p] |= (int64_t)1 << led;
        }
        st[O_TC + d] = c;
        st[O_TP + d] = p;
        K(track)(st, d, tcount, led, trump);
        if (tcount + 1 == P) {
            const int64_t w = st[O_TP + st[O_WIN + d]];
            won += st[O_SIDE + w];
            st[S_TCOUNT] = 0;
            st[S_TOMOVE] = w;
            st[S_LEFT] -= 1;
        } else {
            st[S_TCOUNT] = tcount + 1;
            st[S_TOMOVE] = p + 1 < P ? p + 1 : 0;
        }
        d++;
    }
    for (int64_t i = 0; i < P; i++) {
        h[i] = hands[i];
        st[O_VOID + i] = voids[i];
    }
    st[S_TCOUNT] = s_tcount;
    st[S_LED] = s_led;
    st[S_TOMOVE] = s_tomove;
    st[S_LEFT] = s_left;
    st[S_SUITSLED] = s_suitsled;
    return won;
}

static KT int64_t K(solve_dense)(const Ctx *x, int64_t lo, int64_t hi, int64_t d)
{
    int64_t *st = x->st;
    K(init_trick)(st, d);
    /* one trick at a time from the tricks the ordering's own play-out takes: 7% fewer
     * nodes than a binary search in no trumps, 3% in suit contracts; in misère, where the
     * play-out lets the lone contractor off lightly, from one trick fewer (1% fewer nodes
     * than stepping up from lo + 1, 4% in open misère; two fewer: worse; the house
     * contracts of two misère players: 3% more) */
    int64_t alone = 0;
    for (int64_t i = 0; i < st[S_P]; i++)
        alone += st[O_SIDE + i];
    const int64_t guess = K(greedy)(x, d) - (st[S_MISERE] == 1 && alone == 1);
    K(init_trick)(st, d);
    return K(solve_from)(x, lo, hi, d, guess);
}

static KT int K(reach_dense)(const Ctx *x, int64_t target)
{
    K(init_trick)(x->st, x->st[S_TCOUNT]);
    return K(search)(x, target, x->st[S_TCOUNT]);
}

static KT int64_t K(move_values_dense)(const Ctx *x, int64_t *moves, int64_t *values)
{
    uint64_t *h = x->h;
    int64_t *st = x->st;
    const int64_t d = st[S_TCOUNT];
    K(init_trick)(st, d);
    const int64_t p = st[S_TOMOVE];
    const int64_t P = st[S_P];
    const int64_t tcount = st[S_TCOUNT];
    const int64_t trump = st[S_TRUMP];
    const int64_t left = st[S_LEFT];
    uint64_t out = 0;
    for (int64_t i = 0; i < P; i++)
        out |= h[i];
    for (int64_t i = 0; i < tcount; i++)
        out |= (uint64_t)1 << st[O_TC + i];
    const int64_t n = K(gen_moves)(h, st, x->buf, d * MAX_MOVES, d, 0, out & ~h[p]);
    for (int64_t i = 0; i < n; i++)
        moves[i] = x->buf[d * MAX_MOVES + i] & 0xFFFF;
    /* a lone misère contractor: each move first "can it be forced to take a trick?" (one
     * zero-window search that ends at the first trick it takes), stepping up only when it
     * can; against starting from the play-out's count and then the previous move's value:
     * 3.6% fewer nodes and 5% less time over 600 misère and open misère positions of three
     * to nine tricks, the values unchanged (the value of a whole position keeps its first
     * guess, see solve_dense: from one trick, 0.7% fewer nodes only) */
    int64_t alone = 0;
    for (int64_t i = 0; i < P; i++)
        alone += st[O_SIDE + i];
    const int lone = st[S_MISERE] == 1 && alone == 1;
    int64_t guess = lone ? 0 : K(greedy)(x, d);
    K(init_trick)(st, d);
    for (int64_t i = 0; i < n; i++) {
        int64_t mv = moves[i];
        int64_t c = mv >> 3;
        int64_t nom = mv & 7;
        int64_t cs = st[O_CSUIT + c];
        int done = 0;
        for (int64_t j = 0; j < i; j++) {
            int64_t c2 = moves[j] >> 3;
            if ((moves[j] & 7) != nom || st[O_CSUIT + c2] != cs || nom != NOMINATION_NONE)
                continue;
            int64_t a = c < c2 ? c : c2;
            int64_t b = c < c2 ? c2 : c;
            if ((out & K(bits_below)(b) & K(bits_above)(a) & ~h[p]) == 0) {
                values[i] = values[j];
                done = 1;
                break;
            }
        }
        if (done)
            continue;
        uint64_t bit = (uint64_t)1 << c;
        int64_t old_led = st[S_LED];
        int64_t old_led_mask = st[S_SUITSLED];
        int64_t old_void = st[O_VOID + p];
        h[p] ^= bit;
        int64_t led;
        if (tcount == 0) {
            led = cs == 4 ? nom : cs;
            st[S_LED] = led;
            st[S_SUITSLED] = old_led_mask | ((int64_t)1 << led);
        } else {
            led = old_led;
            if (cs != led)
                st[O_VOID + p] = old_void | ((int64_t)1 << led);
        }
        st[O_TC + d] = c;
        st[O_TP + d] = p;
        K(track)(st, d, tcount, led, trump);
        if (tcount + 1 == P) {
            int64_t w = st[O_TP + st[O_WIN + d]];
            st[S_TCOUNT] = 0;
            st[S_TOMOVE] = w;
            st[S_LEFT] = left - 1;
            int64_t side_w = st[O_SIDE + w];
            values[i] = side_w + K(solve_from)(x, 0, left - 1, d + 1, guess - side_w);
        } else {
            st[S_TCOUNT] = tcount + 1;
            st[S_TOMOVE] = (p + 1) % P;
            K(init_trick)(st, d + 1);
            values[i] = K(solve_from)(x, 0, left, d + 1, guess);
        }
        st[S_LEFT] = left;
        st[S_TCOUNT] = tcount;
        st[S_TOMOVE] = p;
        st[S_LED] = old_led;
        st[S_SUITSLED] = old_led_mask;
        st[O_VOID + p] = old_void;
        h[p] ^= bit;
        if (!lone)
            guess = values[i];
    }
    return n;
}

/* n uniformly random playouts to the end of the hand; results[k] is the contracting
 * side's further tricks in playout k. Returns the generator's final state. */
static KT uint64_t K(playouts_dense)(const uint64_t *h0, const int64_t *st0, const int64_t *tc0,
                                     const int64_t *tp0, const int64_t *side,
                                     const int64_t *voids0, const uint64_t *suitm,
                                     const int64_t *csuit, int64_t n, uint64_t seed,
                                     int64_t *results)
{
    uint64_t x = seed * M1 + (uint64_t)0x632BE59BD9B4E019ULL;
    if (x == 0)
        x = 1;
    uint64_t h[8];
    int64_t st[ST_SIZE], tc[80], tp[80], voids[8];
    const int64_t P = st0[S_P];
    const int64_t trump = st0[S_TRUMP];
    const int64_t misere = st0[S_MISERE];
    const uint64_t free = suitm[4];
    for (int64_t k = 0; k < n; k++) {
        for (int64_t i = 0; i < P; i++) {
            h[i] = h0[i];
            voids[i] = voids0[i];
        }
        for (int64_t i = 0; i < ST_SIZE; i++)
            st[i] = st0[i];
        int64_t tcount = st0[S_TCOUNT];
        for (int64_t i = 0; i < tcount; i++) {
            tc[i] = tc0[i];
            tp[i] = tp0[i];
        }
        int64_t p = st0[S_TOMOVE];
        int64_t left = st0[S_LEFT];
        int64_t led = st0[S_LED];
        int64_t total = 0;
        while (left > 0) {
            uint64_t hand = h[p];
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            uint64_t r = (x * (uint64_t)0x2545F4914F6CDD1DULL) >> 32;
            int64_t c;
            if (tcount == 0) {
                int64_t nom = -1;
                uint64_t plain = hand & ~free;
                uint64_t jokers = hand & free;
                int64_t count = K(popcount)(plain);
                int64_t allowed = 0;
                if (jokers) {
                    allowed = K(joker_lead_suits)(st, voids[p], hand, free);
                    count += K(popcount)(jokers) * K(popcount)((uint64_t)allowed);
                }
                int64_t pick = (int64_t)((r * (uint64_t)count) >> 32);
                int64_t np_plain = K(popcount)(plain);
                if (pick < np_plain) {
                    uint64_t m = plain;
                    for (int64_t t = 0; t < pick; t++)
                        m &= m - 1;
                    c = K(ctz)(m);
                } else {
                    pick -= np_plain;
                    int64_t na = K(popcount)((uint64_t)allowed);
                    uint64_t m = jokers;
                    for (int64_t t = 0; t < pick / na; t++)
                        m &= m - 1;
                    c = K(ctz)(m);
                    int64_t j = pick % na;
                    for (int64_t s = 0; s < 4; s++) {
                        if ((allowed >> s) & 1) {
                            if (j == 0) {
                                nom = s;
                                break;
                            }
                            j--;
                        }
                    }
                }
                led = csuit[c] == 4 ? nom : csuit[c];
                st[S_SUITSLED] |= (int64_t)1 << led;
            } else {
                uint64_t legal = hand & suitm[led];
                if (legal == 0) {
                    if (misere == 1 && (hand & free))
                        legal = hand & free;
                    else
                        legal = hand;
                }
                int64_t count = K(popcount)(legal);
                int64_t pick = (int64_t)((r * (uint64_t)count) >> 32);
                uint64_t m = legal;
                for (int64_t t = 0; t < pick; t++)
                    m &= m - 1;
                c = K(ctz)(m);
                if (csuit[c] != led)
                    voids[p] |= (int64_t)1 << led;
            }
            h[p] = hand ^ ((uint64_t)1 << c);
            tc[tcount] = c;
            tp[tcount] = p;
            tcount++;
            if (tcount == P) {
                int64_t w = tp[K(trick_winner)(tc, 0, P, led, trump, csuit)];
                total += side[w];
                tcount = 0;
                left--;
                st[S_LEFT] = left;
                p = w;
            } else {
                p = (p + 1) % P;
            }
        }
        results[k] = total;
    }
    return x;
}

#undef KI
