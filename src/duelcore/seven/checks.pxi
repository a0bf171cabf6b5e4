# The invariants of the 7 Wonders core (included by engine.pyx): sv_state_check, run after
# every action in the debug build and by state_from_dict.

cdef int sv_state_check(const SevenState* s) noexcept nogil:
    """0 if the state is consistent, else a code: 1 coins < 0; 2 a derived field is stale;
    3 a card in two places; 4 a card missing or out of the game; 5 cities and built cards
    disagree; 6 a wrong hand size; 7 a counter out of range; 8 a name twice in a city; 9 a
    study's removed cards and their spare copies disagree (see sv_deal_spares)."""
    cdef SevenCity tmp
    cdef u64 all_[3]
    cdef u64 uni[3]
    cdef u64 agek[3]
    cdef u64 base[3]
    cdef u64 x
    cdef int i, w, k, n = 3 if s.n_players == 2 else s.n_players, a, names_total = 0, exp
    if s.n_players < 2 or s.n_players > 7 or s.phase > SP_OVER or s.age > 3 or s.turn > 6:
        return 7
    for i in range(s.n_seats):
        if s.c[i].coins < 0:
            return 1
        if s.age > 0 or s.phase >= SP_GUILD:
            recompute_city(&s.c[i], &tmp)
            if memcmp(&tmp, &s.c[i], sizeof(SevenCity)) != 0:
                return 2
            if s.c[i].stages > n_stages(&s.c[i]):
                return 7
        names_total += popcount(s.c[i].city[0]) + popcount(s.c[i].city[1])
    # each card of the game in exactly one place
    for w in range(3):
        all_[w] = 0
        uni[w] = 0
    for w in range(3):
        x = s.deck[w]
        if x & all_[w]:
            return 3
        all_[w] |= x
        x = s.discard[w]
        if x & all_[w]:
            return 3
        all_[w] |= x
        x = s.tucked[w]
        if x & all_[w]:
            return 3
        all_[w] |= x
        x = s.built[w]
        if x & all_[w]:
            return 3
        all_[w] |= x
        for i in range(s.n_players):
            x = s.c[i].hand[w]
            if x & all_[w]:
                return 3
            all_[w] |= x
    for a in range(1, s.age + 1):
        sv_age_deck(s, a, agek)
        for w in range(3):
            uni[w] |= agek[w]
    if s.age == 3:
        for k in range(SV_NUM_GUILDS):
            if (s.guilds >> k) & 1:
                bit_add(uni, GUILD_PHYS[k])
    for w in range(3):
        if all_[w] != uni[w]:
            return 4
    if b3_count(s.built) != names_total:
        return 5
    for w in range(3):
        x = s.built[w]
        while x:
            k = PH_NAME[64 * w + ctz(x)]
            x &= x - 1
            for i in range(s.n_seats):
                if has_name(&s.c[i], k):
                    break
            else:
                return 5
    if s.phase == SP_TURN:
        for i in range(s.n_players):
            exp = 8 - s.turn
            if s.n_players == 2 and i == controller(s):
                exp += 1
            if b3_count(s.c[i].hand) != exp:
                return 6
        if s.turn == 1 and s.n_players > 2:
            for i in range(s.n_players):
                if b3_count(s.c[i].hand) != 7:
                    return 6
    if s.guilds >> SV_NUM_GUILDS:
        return 7
    # a study's removed cards (code 9): never drawn, dealt or placed; as many spare copies of
    # each Age, none of them in the player count's deck
    for k in range(SV_NUM_GUILDS):
        if (s.guilds >> k) & 1 and guild_out(s, k):
            return 9
    for a in range(1, 4):
        for w in range(3):
            base[w] = AGE_PHYS[a][n][w] & s.excluded[w]
            agek[w] = s.added[w] & AGE_PHYS[a][7][w]
            if agek[w] & (AGE_PHYS[a][n][w] | s.excluded[w]):
                return 9
        if b3_count(base) != b3_count(agek):
            return 9
    for w in range(3):
        x = s.added[w]
        for a in range(1, 4):
            x &= ~AGE_PHYS[a][7][w]
        if x:
            return 9
    if s.age > 0 and popcount(s.guilds) != (5 if s.n_players == 2 else s.n_players + 2):
        return 7
    return 0
