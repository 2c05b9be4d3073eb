"""The benchmarks still measure what they say: bench/device.py times two whole battles by their
key presses (a change to the screens that sent a press elsewhere would make it time another
path, or stop it), and each of its other parts runs here once, small and untimed: the cold
press, the main loop's warm-up and idle, the sim's start, the odds process and per shot, and
the store's figures. The figures themselves are the benchmark's; these only check that each
part runs the real thing and gives sane numbers."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.by_path import module_at

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture(scope="module")
def bench_device(tmp_path_factory: pytest.TempPathFactory) -> Any:
    # bench/device.py imports bench/run.py as `run`, a name the project's own run.py may have
    # taken in this process, and bench/store_odds.py: the bench's modules are loaded by path,
    # each under its own name too.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
        patch.setitem(sys.modules, "run", load(patch, "run", "bench_run"))
        patch.setitem(sys.modules, "store_odds", load(patch, "store_odds", "bench_store_odds"))
        yield load(patch, "device", "bench_device")


def load(patch: pytest.MonkeyPatch, name: str, as_name: str) -> Any:
    patch.delitem(sys.modules, as_name, raising=False)     # taken away again after the module
    return module_at(BENCH / f"{name}.py", as_name)


@pytest.mark.long
@pytest.mark.parametrize("battle", ["Tank Game", "Easy"])
def test_the_benchmarks_battles_play_to_their_end(bench_device: Any, battle: str) -> None:
    keys, dice = bench_device.BATTLES[battle]
    finger = bench_device.play(keys, dice)           # raises if the battle went off script
    assert len(finger.latencies) >= len(keys) // 2   # the presses drew frames to time
    assert all(ms > 0 for ms in finger.latencies)
    frames = finger.display.frames
    assert frames[0][0] > 1024                        # the panel's set-up and a whole frame
    assert all(0 <= sent <= 1030 for sent, _ in frames[1:])   # at most a whole frame each
    assert finger.saved                              # some presses saved the battle


def test_the_cold_press_is_timed_right_after_the_first_frame(bench_device: Any) -> None:
    cold = bench_device.cold_press()
    assert cold["ms"] > 0 and 0 < cold["bytes"] <= 1030


def test_the_loop_warms_up_then_idles_and_stops(bench_device: Any) -> None:
    idle = bench_device.warm_up_and_idle(0.3, window_s=0.0)
    assert idle["stopped"]
    assert idle["warm_cpu_s"] > 0 and idle["wall_s"] >= 0.3


def test_the_sim_starts_to_its_menu(bench_device: Any, tmp_path: Path) -> None:
    assert bench_device.sim_start(dict(os.environ), str(tmp_path / "sim-state")) > 0


def test_the_odds_process_and_shots(bench_device: Any) -> None:
    store_odds = sys.modules["store_odds"]
    assert len(store_odds.odds_process(1, dict(os.environ))) == 1
    odds = bench_device.child("odds", 0.0, 1)      # what the bench's odds process returns
    assert len(odds["shots"]) == 16 and odds["thickest_ns"] > 0   # 4 shipped cards, 4 facings


def test_the_store_figures_count_and_check_as_they_should(bench_device: Any,
                                                          tmp_path: Path) -> None:
    store_odds = sys.modules["store_odds"]
    got = store_odds.store_figures(tmp_path, rolls=1_000, megabytes=0.5, repeat=2, kills=1)
    assert got.rolls == 1_000 and got.megabytes >= 0.5
    assert len(got.stats_s) == len(got.clean_open_s) == 2 and len(got.killed_open_s) == 1
    assert got.checked_after_clean == 0 and got.checked_after_kill == 1


def test_the_table_judges_the_p99_where_the_target_is_one(bench_device: Any,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    row = bench_device.Row
    rows = [row("fast median, slow p99", 1.0, "ms", 2.0, p99=3.0),
            row("slow median", 0.3, "s", 0.2), row("small", 500, "B", 600, time=False),
            row("no target", 9.0, "ms", None)]
    assert [r.verdict() for r in rows] == ["MISS", "MISS", "PASS", "-"]
    bench_device.table(rows)
    out = capsys.readouterr().out.splitlines()
    assert out[2].split()[-1] == "MISS" and "15.0 ms, p99 45.0 ms" in out[2]
    assert "4.500 s" in out[3] and "(not scaled)" in out[4]


def test_the_soft_odds_benchmark_runs_and_its_checks_pass(tmp_path: Path) -> None:
    """bench/soft_odds.py once, with few repeats: its own checks (every distribution sums to
    one) pass, and it still builds its cards as the rules now take them."""
    with pytest.MonkeyPatch.context() as patch:
        soft_odds = load(patch, "soft_odds", "bench_soft_odds")
        assert soft_odds.main(["--repeat", "2"]) == 0


def test_the_dark_panel_is_retried_through_the_box_s_port() -> None:
    """bench/dark_panel.py, small: every retry is a failed open of luma's real i2c and ssd1306
    (none gets through), and the growth it measures is no panel's (~0.3 MiB each before)."""
    with pytest.MonkeyPatch.context() as patch:
        dark_panel = load(patch, "dark_panel", "bench_dark_panel")
        got = dark_panel.measure(20)
    assert got["errors"] == 2 * (dark_panel.WARM_UP + 20) and not got["healthy"]
    assert 0 <= got["traced_bytes"] < 100_000


@pytest.fixture(scope="module")
def bench_faults() -> Any:
    with pytest.MonkeyPatch.context() as patch:
        yield load(patch, "faults", "bench_faults")


def test_the_fault_benchmark_tries_every_stick_setting_and_each_is_refused(
        bench_faults: Any, tmp_path: Path) -> None:
    """bench/faults.py's stick attacks: every setting outside [game] and [house_rules], from
    the schema, each refused by the real loader."""
    attacks = bench_faults.stick_attacks()
    places = [place for place, _ in attacks]
    assert {"paths.state_dir", "leds.axis", "display.contrast", "sensors",
            "test.keys_fifo"} <= set(places)
    assert not any(place.startswith(("game.", "house_rules.")) for place in places)
    assert [place for place, text in attacks
            if not bench_faults.stick_refuses(place, text, tmp_path)] == []


@pytest.mark.parametrize("name", ['settings: cards_dir = "~nosuchuser/x"',
                                  "database: a battle 5,000 deep"])
def test_the_fault_benchmark_starts_the_box_on_a_bad_file(bench_faults: Any,
                                                          name: str) -> None:
    """Two of bench/faults.py's bad files, each tried on the box started as the unit starts
    it: handled (up, pinging, named, no traceback, the battle kept, a clean stop)."""
    [case] = [case for case in bench_faults.bad_files(quick=True) if case.name == name]
    outcome = bench_faults.try_case(case, limit_s=120.0)
    assert (outcome.result, outcome.detail) == ("handled", "")


def test_the_fault_benchmark_fills_the_disk_mid_battle_and_finds_it_whole_after(
        bench_faults: Any, tmp_path: Path) -> None:
    figures = bench_faults.saves_trial(tmp_path, seed=3)
    assert figures["failed"] > 0 and figures["shown"] == 1
    assert (figures["recovered"], figures["lost"]) == (1, 0)


def test_the_bad_card_benchmark_s_files_are_what_it_says(bench_device: Any,
                                                         tmp_path: Path) -> None:
    """bench/bad_card.py's card has 30,000 problems (refused whole before it is read, as a
    card; counted one by one, the first 20 kept, as a Soft Targets Table)."""
    from cobi_companion.cards import load_cards
    from cobi_companion.cards.book import problem_count

    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "device", bench_device)
        bad_card = load(patch, "bad_card", "bench_bad_card")
    made = bad_card.folders(tmp_path)
    assert load_cards([made["clean"]]).problems == []
    card = load_cards([made["bad card"]]).problems
    assert len(card) == 1 and "over 32 KiB" in card[0].message
    table = load_cards([made["bad table"]]).problems
    assert len(table) == 21 and problem_count(table) == bad_card.PROBLEMS


def test_the_roster_benchmark_turns_the_knob_through_the_cards_it_says(
        bench_device: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """bench/roster.py, small: its book has as many cards as it says, each its own, the knob
    turns on New battle's roster (each turn a frame), and its table has a row per count."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "device", bench_device)
        roster = load(patch, "roster", "bench_roster")
    book = roster.book_of(30)
    assert len(book.cards) == 30 and len({card.name for card in book.cards.values()}) == 30
    assert len(roster.turns(30, 25)) == 25
    assert roster.main(["--turns", "5", "--counts", "5,20"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out[2:4]] == ["5", "20"]
    assert out[4].startswith("20 cards / 5 cards: ")


def test_a_whole_cobra_campaign_saves_as_much_at_its_end_as_at_its_start(
        tmp_path: Path) -> None:
    """bench/campaign.py plays a campaign to its end on the real box; the bytes each save
    writes (the kernel's count, whole pages: the same for the same presses and dice) are about
    the same at game turn 27 as at game turn 1, where saving the whole game grew with it."""
    with pytest.MonkeyPatch.context() as patch:
        campaign = load(patch, "campaign", "bench_campaign")
    figures = campaign.Campaign()
    campaign.play(tmp_path, figures)
    assert figures.turns >= 27 and figures.log_lines > 300
    assert len(figures.saves_bytes) > 300 and min(figures.saves_bytes) > 0
    assert len(figures.presses_ns) == len(figures.frames_ns) > 200
    assert all(0 < frame <= press for frame, press in zip(figures.frames_ns,
                                                          figures.presses_ns, strict=True))
    assert campaign.report(figures)          # the end's bytes within 10 % of the start's


def test_the_smart_dice_benchmark_plays_its_battle_by_throws_and_times_each_face(
        bench_device: Any) -> None:
    """bench/smart_dice.py, one battle: every die thrown draws the frame that shows it (a die
    the screens did not take would stop it), each timed from its event on the queue."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "device", bench_device)
        smart = load(patch, "smart_dice", "bench_smart_dice")
        times = smart.battle()
    assert len(times) == len(smart.ROLL_OFF) + len(smart.SHOT)
    assert all(t > 0 for t in times)
