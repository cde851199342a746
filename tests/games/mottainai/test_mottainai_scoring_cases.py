"""Mottainai rules cases MOT-8 (scoring, tie-break) and MOT-9 (variants, two decks)."""

from __future__ import annotations

from arbiter.games.mottainai import scoring


def parts(state, seat):
    return scoring.score(state)["seats"][seat]["parts"]


# -- MOT-8 Scoring ------------------------------------------------------------------------------


def test_MOT_8_1_the_rules_scoring_example_makes_21(mot):
    """MOT-8.1 (rules: Game End example): six works worth 12, one covered CLAY sale (3),
    METAL backorders with the most METAL sales though uncovered (2 cards, 6): 21."""
    state = mot.build(
        gallery={"alice": ["crane", "doll", "frog"]},
        gift_shop={"alice": ["tower", "vase", "jar"]},
        sales={"alice": ["dice", "bell"], "bob": ["kite"]},
        hand={"alice": ["coin", "gong", "mask"]},
    )
    assert parts(state, "alice") == {
        "works": 12,
        "sales": 3,
        "backorders": 6,
        "cards": 0,
        "total": 21,
    }


def test_MOT_8_2_three_stone_sales_one_stone_work_score_nothing(mot):
    """MOT-8.2 (rules: Cover example): 3 STONE sales, one STONE work (value 2): 0 points;
    with 2 sales they are covered and score 4."""
    state = mot.build(
        gift_shop={"alice": ["tower"]},
        sales={"alice": ["frog", "statue", "tablet"]},
        hand={"alice": ["kite"]},
    )
    assert parts(state, "alice")["sales"] == 0
    state = mot.build(
        gift_shop={"alice": ["tower"]},
        sales={"alice": ["frog", "statue"]},
        hand={"alice": ["kite"]},
    )
    assert parts(state, "alice")["sales"] == 4


def test_MOT_8_3_a_cloth_work_covers_two_cloth_sales(mot):
    """MOT-8.3 (rules: Gift Shop example): one CLOTH work covers 2 CLOTH sales: 4 points.
    A work in the gallery covers no sale."""
    state = mot.build(
        gift_shop={"alice": ["kite"]}, sales={"alice": ["mask", "robe"]}, hand={"alice": ["jar"]}
    )
    assert parts(state, "alice")["sales"] == 4
    state = mot.build(
        gallery={"alice": ["kite"]}, sales={"alice": ["mask", "robe"]}, hand={"alice": ["jar"]}
    )
    assert parts(state, "alice")["sales"] == 0


def test_MOT_8_4_backorders_need_the_strict_majority_of_sales(mot):
    """MOT-8.4 (rules: Game End): the most sales of a material (covered or not) scores the
    hand cards of it; a tie scores for nobody, 0-0 included."""
    state = mot.build(
        mot.SEATS3,
        sales={"alice": ["dice", "figurine", "frog"], "bob": ["teapot", "statue"]},
        hand={"alice": ["jar", "tower", "crane"], "bob": ["vase", "tablet"], "carol": ["doll"]},
    )
    result = scoring.score(state)["seats"]
    # CLAY 2-1-0: alice's CLAY in hand (uncovered sales count too); STONE 1-1-0: tied,
    # nobody; PAPER 0-0-0: nobody.
    assert result["alice"]["backorders"] == {"CLAY": 3}
    assert result["bob"]["backorders"] == {} and result["carol"]["backorders"] == {}


def test_MOT_8_5_the_waiting_area_never_counts(mot):
    """MOT-8.5 (rules: Game End): cards in a waiting area score no backorders."""
    state = mot.build(
        sales={"alice": ["bell"]}, waiting={"alice": ["coin", "gong"]}, hand={"alice": ["kite"]}
    )
    assert parts(state, "alice")["backorders"] == 0


def test_MOT_8_6_ties_go_to_the_current_player_then_the_nearest(mot):
    """MOT-8.6 (rules: Game End, M-R1): a tie goes to the current player, else to the
    player nearest after them in turn order."""
    state = mot.build(
        mot.SEATS3,
        current="bob",
        gallery={"alice": ["crane"], "bob": ["doll"]},
        hand={"bob": ["kite"]},
    )
    ranking, note = scoring.rank(state, {"alice": 1, "bob": 1, "carol": 0})
    assert ranking == [["bob"], ["alice"], ["carol"]] and "current player bob" in note
    ranking, _ = scoring.rank(state, {"alice": 1, "bob": 0, "carol": 1})
    assert ranking == [["carol"], ["alice"], ["bob"]]  # carol sits next after bob


def test_MOT_8_7_the_end_shows_a_score_composition(mot):
    """MOT-8.7 (issue: readable logs): the end lists each seat's score composition."""
    state = mot.build(
        hand={"alice": ["kite", "bell"]},
        deck=["coin"],
        gift_shop={"alice": ["vase"]},
        sales={"alice": ["jar"]},
        leftover=("bob", "helpers"),
    )
    events = mot.play(state, "alice", mot.NO_TASK)
    lines = mot.lines(events)
    assert "Score alice: works 3 + covered sales 3 (CLAY) + backorders 0 + cards 0 = 6." in lines
    outcome = mot.engine.outcome(state)
    assert outcome.breakdown["alice"] == {
        "works": 3,
        "sales": 3,
        "backorders": 0,
        "cards": 0,
        "total": 6,
    }


# -- MOT-9 Variants and two decks ------------------------------------------------------------------


def test_MOT_9_1_team_play_adds_partners_scores(mot):
    """MOT-9.1 (rules: Team Play, M-R1): partners sit across; "opponent" excludes the
    partner; team scores are added; a tie goes to the team of the nearest player."""
    state = mot.build(
        mot.SEATS4,
        teams=True,
        current="bob",
        gallery={"alice": ["vase"], "carol": ["kite"], "bob": ["bell"], "dave": ["frog"]},
        hand={"bob": ["crane"]},
    )
    assert state.partner("alice") == "carol" and state.opponents("alice") == ["bob", "dave"]
    result = scoring.score(state)
    assert result["scores"] == {"alice": 5, "bob": 5, "carol": 5, "dave": 5}
    assert result["ranking"] == [["bob", "dave"], ["alice", "carol"]]  # bob is the current player
    assert mot.engine.view(state, None)["teams"] == [["alice", "carol"], ["bob", "dave"]]


def test_MOT_9_2_team_play_performs_the_partners_task_too(mot):
    """MOT-9.2 (M-R21): in team play Noon still performs every other player's task."""
    state = mot.build(
        mot.SEATS4, teams=True, task={"carol": "jar", "bob": "kite"}, hand={"alice": ["crane"]}
    )
    events = mot.play(state, "alice", mot.NO_TASK)
    events += mot.play(state, "alice", mot.PRAYER)
    assert [e.data["owner"] for e in events if e.kind == "task-start"] == ["bob", "carol"]


def test_MOT_9_3_two_copies_of_a_card_are_two_works(mot):
    """MOT-9.3 (rules: Cards, M-R20): with two decks kite and kite#2 are separate works;
    both count for cover (4 TAILOR helpers covered) and for points."""
    state = mot.build(
        mot.SEATS4,
        gallery={"alice": ["kite", "kite#2"]},
        helpers={"alice": ["mask", "robe", "mask#2", "robe#2"]},
        hand={"alice": ["socks"]},
    )
    mot.play(state, "alice", mot.DONE)  # decline the Kites' morning effects
    events = mot.play(state, "alice", mot.task("socks"))
    assert next(e for e in events if e.kind == "task-start").data["actions"] == 9
    assert parts(state, "alice")["works"] == 4


def test_MOT_9_4_extended_option_is_parsed(mot):
    """MOT-9.4 (rules: Extended game, M-R20): extended=yes makes 6 works end the game."""
    state, _ = mot.new_game(extended="yes")
    assert state.extended and mot.engine.view(state, None)["works_to_end"] == 6
