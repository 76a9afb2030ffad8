"""The Gomocup (piskvork) protocol both ways: ``inarow.engines.Gomocup`` driving real
and fake brains, and ``inarow pbrain`` answering a manager."""

from __future__ import annotations

import io
import logging
import pickle
import subprocess
import sys
import time

import numpy as np
import pytest

import inarow
from inarow.engines import EngineError, EngineTimeout, Gomocup, IllegalEngineMove
from inarow.pbrain import DeepeningNegamax, serve

try:
    import psutil
except ImportError:  # the reaped process is checked through Popen alone
    psutil = None

PBRAIN = [sys.executable, "-m", "inarow", "pbrain"]

# A brain for the tests: MODE says how it misbehaves on a move; it logs every line it
# reads to LOG. Well behaved ("ok"), it plays the last empty cell in reading order
# (bottom row, rightmost), which tells x from y on a board wider than it is high.
FAKE_BRAIN = r"""
import signal, sys, time
mode, log_path = sys.argv[1], sys.argv[2]
log = open(log_path, "a")
width = height = 0
stones = set()
if mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
if mode == "orphan_end":  # a child that holds stdout after the brain ends
    import subprocess
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    log.write("child %d\n" % child.pid)
    log.flush()

def say(text, end="\n"):
    sys.stdout.write(text + end)
    sys.stdout.flush()

def move(last):
    if mode == "crash":
        sys.stderr.write("boom\n")
        sys.stderr.flush()
        sys.exit(3)
    if mode == "hang":
        return
    if mode in ("flood", "blank"):  # chatter and no move, for 4 s
        until = time.monotonic() + 4
        while time.monotonic() < until:
            say("" if mode == "blank" else "MESSAGE still thinking")
        return
    if mode == "orphan":  # exits, a child of its own still holding stdout
        import subprocess
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        log.write("child %d\n" % child.pid)
        log.flush()
        sys.exit(0)
    if mode == "slow":
        time.sleep(3)
    if mode == "garbage":
        return say("hello world")
    if mode == "offboard":
        return say("%d,0" % width)
    if mode == "occupied":
        return say("%d,%d" % last)
    end = "\r" if mode == "chatty" else "\n"
    if mode == "chatty":
        say("MESSAGE thinking hard", end="\r")
        say("DEBUG depth 1", end="\r\n")
    cells = [(x, y) for y in range(height) for x in range(width) if (x, y) not in stones]
    stones.add(cells[-1])
    say("%d,%d" % cells[-1], end=end)

lines = iter(sys.stdin.readline, "")
for line in lines:
    log.write(line.strip() + "\n")
    log.flush()
    command, _, rest = line.strip().partition(" ")
    if command == "ABOUT":
        say('name="fake", version="1.0", author="tests"')
    elif command in ("START", "RECTSTART"):
        if mode == "refuse":
            say("ERROR only 20x20")
            continue
        width, height = (int(rest), int(rest)) if command == "START" else map(int, rest.split(","))
        stones.clear()
        say("OK")
    elif command == "RESTART":
        stones.clear()
        say("UNKNOWN RESTART" if mode == "norestart" else "OK")
    elif command == "BEGIN":
        move(None)
    elif command == "TURN":
        x, y = map(int, rest.split(","))
        stones.add((x, y))
        move((x, y))
    elif command == "BOARD":
        last = None
        for row in lines:
            log.write(row.strip() + "\n")
            if row.strip() == "DONE":
                break
            x, y, field = map(int, row.split(","))
            stones.add((x, y))
            last = (x, y)
        log.flush()
        move(last)
    elif command == "END":
        if mode != "stubborn":
            break
    elif command != "INFO":
        say("UNKNOWN " + command)
"""


@pytest.fixture
def fake(tmp_path):
    """fake(mode, **options) -> (engine, log path): a fake brain as an engine."""
    script = tmp_path / "fake_brain.py"
    script.write_text(FAKE_BRAIN)
    engines = []

    def start(mode: str = "ok", **options):
        log = tmp_path / f"{mode}-{len(engines)}.log"
        options.setdefault("timeout_turn", 0.5)
        options.setdefault("grace", 0.5)
        options.setdefault("startup_timeout", 0.5)
        engine = Gomocup([sys.executable, str(script), mode, str(log)], **options)
        engines.append(engine)
        return engine, log

    yield start
    for engine in engines:
        engine.close()


def _gone(popen: subprocess.Popen) -> bool:
    """The process has ended and been reaped (no zombie left behind)."""
    if popen.poll() is None:
        return False
    return psutil is None or not psutil.pid_exists(popen.pid)


def _log(path) -> list[str]:
    return path.read_text().split("\n")


# --------------------------------------------------------------- inarow pbrain, played


def test_pbrain_plays_full_games_through_the_client():
    with Gomocup([*PBRAIN, "--agent", "negamax:2", "--seed", "1"], timeout_turn=5) as brain:
        assert brain.about["name"] == "inarow"
        assert brain.about["version"] == inarow.__version__
        popen = brain._process.popen
        result = inarow.evaluate.match(brain, "greedy", games=2, rules="gomoku", seed=3)
        assert result.games == 2
        assert result.moves >= 2 * 9  # a five takes 9 stones at least
    assert _gone(popen)


@pytest.mark.parametrize("threads", ["1", "2"])
def test_pbrain_default_agent_answers_within_its_time_limit(threads):
    board = inarow.Board.gomoku(15)
    for action in (112, 113, 97, 128):
        board.move(action)
    command = [*PBRAIN, "--time-limit", "0.3", "--threads", threads]
    with Gomocup(command, timeout_turn=3, grace=0) as brain:
        began = time.monotonic()
        action = brain(board)
        assert time.monotonic() - began < 3
    assert board.is_legal(action)


def test_pbrain_answers_malformed_commands_and_keeps_playing():
    commands = [
        "ABOUT",
        "HELLO",
        "TURN 7,7",  # before START
        "START fifteen",
        "START 3",
        "START 15",
        "TURN 7",
        "TURN 15,0",
        "INFO timeout_turn soon",
        "INFO rule 8",  # caro
        "BOARD",
        "7,7,2",
        "nonsense",
        "DONE",
        "TURN 7,7",
        "TURN 7,7",  # taken
        "END",
    ]
    proc = subprocess.run(
        [*PBRAIN, "--agent", "negamax:1", "--seed", "0"],
        input="\r\n".join(commands) + "\r\n",
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    heads = [line.split()[0] for line in lines]
    assert heads[:11] == [
        'name="inarow",',
        "UNKNOWN",
        "ERROR",
        "ERROR",
        "ERROR",
        "OK",
        "ERROR",
        "ERROR",
        "ERROR",
        "ERROR",
        "ERROR",
    ]
    assert "off the 15x15 board" in lines[7]
    assert "nonsense" in lines[10]
    x, y = map(int, lines[11].split(","))  # TURN 7,7 answered with a move
    assert (x, y) != (7, 7) and 0 <= x < 15 and 0 <= y < 15
    assert lines[12].startswith("ERROR") and "taken" in lines[12]
    assert len(lines) == 13


def test_pbrain_survives_bytes_that_are_not_utf8():
    proc = subprocess.run(
        [*PBRAIN, "--agent", "greedy"],
        input=b"\xff\xfe\r\nSTART 15\r\nTURN 7,7\r\nEND\r\n",
        capture_output=True,
        timeout=30,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.decode().splitlines()
    assert lines[0].startswith("UNKNOWN") and lines[1] == "OK" and "," in lines[2]


def test_pbrain_rejects_an_unknown_agent_and_bad_thread_counts():
    proc = subprocess.run(
        [*PBRAIN, "--agent", "nobody"], capture_output=True, text=True, timeout=30, input=""
    )
    assert proc.returncode == 2
    assert "not an agent name" in proc.stderr
    proc = subprocess.run(
        [*PBRAIN, "--threads", "0"], capture_output=True, text=True, timeout=30, input=""
    )
    assert proc.returncode == 2
    assert "'0' is not a number of threads in 1..256" in proc.stderr


# ------------------------------------------------------------- inarow pbrain, in-process


class _Recorder:
    """An agent that records the boards it gets and plays given actions."""

    def __init__(self, *actions: int) -> None:
        self.actions = list(actions)
        self.boards: list[inarow.Board] = []
        self.limits: list[float | None] = []

    def __call__(self, board: inarow.Board, time_limit: float | None = None) -> int:
        self.boards.append(board)
        self.limits.append(time_limit)
        return self.actions.pop(0)


def _serve(agent, *commands: str, time_limit: float | None = None) -> list[str]:
    out = io.StringIO()
    assert serve(agent, io.StringIO("\r\n".join(commands) + "\r\n"), out, time_limit) == 0
    return out.getvalue().splitlines()


def test_pbrain_coordinates_are_column_then_row():
    agent = _Recorder(2 * 9 + 6)  # row 2, column 6
    assert _serve(agent, "RECTSTART 9,7", "TURN 5,3") == ["OK", "6,2"]
    (board,) = agent.boards
    grid = board.to_numpy()
    assert grid.shape == (7, 9)
    assert grid[3, 5] == 1 and board.moves == [3 * 9 + 5]


def test_pbrain_board_places_stones_alternately_from_the_right_side():
    agent = _Recorder(0, 1)
    replies = _serve(
        agent,
        "START 10",
        "BOARD",
        "4,4,2",
        "5,5,1",
        "4,5,2",
        "DONE",
        "RESTART",
        "BOARD",
        "4,4,1",
        "5,5,2",
        "9,9,3",
        "DONE",
    )
    assert replies == ["OK", "0,0", "OK", "1,0"]
    first, second = agent.boards
    assert first.current_player == 2 and first.owner(4, 4) == 1 and first.owner(5, 5) == 2
    assert second.current_player == 1 and second.owner(4, 4) == 1 and second.num_stones == 2


def test_pbrain_refuses_impossible_positions():
    replies = _serve(
        _Recorder(),
        "START 10",
        "BOARD",
        "1,1,2",
        "2,2,2",
        "DONE",
        "BOARD",
        "1,1,1",
        "1,1,2",
        "DONE",
        "BOARD",
        "0,0,2",
        "1,0,2",
        "2,0,2",
        "3,0,2",
        "4,0,2",
        "0,1,1",
        "1,1,1",
        "2,1,1",
        "3,1,1",
        "DONE",
        "BEGIN",
    )
    assert [line.split()[0] for line in replies] == ["OK", "ERROR", "ERROR", "ERROR", "ERROR"]
    assert "2 opponent stones" in replies[1]


def test_pbrain_takeback_restart_and_play():
    agent = _Recorder(11, 12)
    replies = _serve(
        agent,
        "START 10",
        "TURN 0,0",
        "TAKEBACK 0,0",  # not the last stone
        "TAKEBACK 1,1",
        "PLAY 5,5",
        "RESTART",
        "BEGIN",
    )
    assert replies[:4] == ["OK", "1,1", "ERROR TAKEBACK 0,0: the last stone is not there", "OK"]
    assert replies[4:] == ["5,5", "OK", "2,1"]


def test_pbrain_gives_the_agent_the_least_time_limit():
    agent = _Recorder(0, 1, 2)
    _serve(
        agent,
        "START 10",
        "INFO timeout_turn 2000",
        "BEGIN",
        "INFO timeout_match 100000",
        "INFO time_left 10000",
        "TURN 9,9",
        "INFO time_left 2147483647",
        "TURN 8,9",
        time_limit=3.0,
    )
    assert agent.limits == pytest.approx([1.4, 0.5, 1.4])


def test_pbrain_reports_a_failing_agent_and_reads_on():
    def broken(board):
        raise RuntimeError("no idea")

    replies = _serve(broken, "START 10", "BEGIN", "ABOUT")
    assert replies[1] == "ERROR the agent failed: RuntimeError: no idea"
    assert replies[2].startswith('name="inarow"')


def test_pbrain_plays_the_shipped_gomoku_network_and_refuses_other_sizes():
    with Gomocup([*PBRAIN, "--agent", "pretrained:8"], timeout_turn=30) as brain:
        result = inarow.evaluate.match(brain, "random", games=2, rules="gomoku", seed=5)
        assert result.games == 2 and result.wins == 2  # the network against random moves
    network = inarow.agents.pretrained("15x15_k5_free", simulations=2)
    replies = _serve(network, "START 20", "START 15", "BEGIN")
    assert replies[0].startswith("ERROR unsupported size 20x20: the agent")
    assert "Rules(width=15, height=15" in replies[0]
    assert replies[1] == "OK" and len(replies) == 3  # and a move on 15x15

    class Rules9:  # an agent of its own that says its rules as an inarow.Rules
        rules = inarow.Rules(width=9, height=9, k=5, gravity=False)

        def __call__(self, board):
            return board.legal_moves()[0]

    replies = _serve(Rules9(), "START 15", "START 9", "BEGIN")
    assert replies[0].startswith("ERROR unsupported size 15x15: the agent")
    assert replies[1:] == ["OK", "0,0"]


def test_deepening_negamax_stops_within_its_budget():
    board = inarow.Board.gomoku(15)
    board.move(112)
    agent = DeepeningNegamax(seed=0)
    began = time.monotonic()
    action = agent(board, time_limit=0.05)
    assert time.monotonic() - began < 1.0 and board.is_legal(action)
    assert agent.depth >= 1


# ------------------------------------------------------------ Gomocup against fake brains


def test_engine_moves_land_where_the_board_says(fake):
    engine, log = fake("ok")
    board = inarow.Board(rules=inarow.Rules(width=9, height=7, k=5, gravity=False))
    board.move(2 * 9 + 5)  # row 2, column 5
    action = engine(board)
    assert action == 6 * 9 + 8  # the fake's "8,6": column 8, row 6
    board.move(action)
    assert board.to_numpy()[6, 8] == 2
    board.move(0)
    assert engine(board) == 6 * 9 + 7
    # A board that does not extend the engine's last one: a new game, given whole.
    other = inarow.Board(rules=inarow.Rules(width=9, height=7, k=5, gravity=False))
    other.move(3)
    other.move(4 * 9 + 1)
    other.move(10)
    assert engine(other) == 6 * 9 + 8
    lines = _log(log)
    assert lines[:2] == ["ABOUT", "RECTSTART 9,7"]
    assert "TURN 5,2" in lines and "TURN 0,0" in lines
    board_at = lines.index("BOARD")
    assert lines[board_at - 1] == "RESTART"
    assert lines[board_at + 1 : board_at + 5] == ["3,0,2", "1,4,1", "1,1,2", "DONE"]


def test_engine_without_restart_is_started_again_for_a_new_game(fake):
    engine, log = fake("norestart")
    board = inarow.Board.gomoku(15)
    board.move(0)
    assert engine(board) == 15 * 15 - 1
    first = engine.pid
    other = inarow.Board.gomoku(15)
    other.move(1)
    assert engine(other) == 15 * 15 - 1
    assert engine.pid != first
    assert _log(log).count("START 15") == 2


def test_engine_gets_a_settle_pause_after_each_move(fake):
    engine, _ = fake("ok", settle=0.3)
    board = inarow.Board.gomoku(15)
    board.move(engine(board))
    board.move(0)
    began = time.monotonic()
    engine(board)
    assert time.monotonic() - began >= 0.3


def test_engine_about_and_messages(fake, caplog):
    engine, _ = fake("chatty")
    assert engine.about == {"name": "fake", "version": "1.0", "author": "tests"}
    assert engine.name == "fake"
    with caplog.at_level(logging.DEBUG, logger="inarow.engines"):
        assert engine(inarow.Board.gomoku(15)) == 15 * 15 - 1
    said = {(r.levelno, r.getMessage()) for r in caplog.records}
    assert (logging.INFO, "fake: thinking hard") in said
    assert (logging.DEBUG, "fake: depth 1") in said


FAULTS = [
    ("crash", EngineError, "exited with code 3.*boom"),
    ("hang", EngineTimeout, r"did not answer 'BEGIN' within 0.5 s \(\+ 1 s grace\)"),
    ("slow", EngineTimeout, "did not answer"),
    ("garbage", EngineError, "'hello world' to 'BEGIN': not a move"),
    ("offboard", IllegalEngineMove, "'15,0' .*off the 15x15 board"),
]


@pytest.mark.parametrize(("mode", "error", "message"), FAULTS)
def test_engine_faults_raise_and_leave_no_process(fake, mode, error, message):
    engine, _ = fake(mode)
    popen = engine._process.popen
    began = time.monotonic()
    with pytest.raises(error, match=message):
        engine(inarow.Board.gomoku(15))
    allowed = engine.timeout_turn + engine.grace + engine.startup_timeout  # a first move
    assert time.monotonic() - began < allowed + 1.5
    assert engine.pid is None and _gone(popen)


def test_engine_onto_a_stone_is_an_illegal_move(fake):
    engine, _ = fake("occupied")
    board = inarow.Board.gomoku(15)
    board.move(7 * 15 + 3)
    popen = engine._process.popen
    with pytest.raises(IllegalEngineMove, match="column 3, row 7.*stone of player 1") as caught:
        engine(board)
    assert isinstance(caught.value, inarow.IllegalMoveError) and caught.value.move == "3,7"
    assert _gone(popen)


def test_engine_starts_again_after_a_fault(fake):
    engine, _ = fake("offboard")
    with pytest.raises(IllegalEngineMove):
        engine(inarow.Board.gomoku(15))
    with pytest.raises(IllegalEngineMove):  # a fresh process, the same fault
        engine(inarow.Board.gomoku(15))
    assert engine.pid is None


def test_engine_refusing_the_size(fake):
    engine, _ = fake("refuse")
    popen = engine._process.popen
    with pytest.raises(inarow.UnsupportedRulesError, match="refuses a 15x15 board.*only 20x20"):
        engine(inarow.Board.gomoku(15))
    assert _gone(popen)


def test_engine_ignoring_end_is_killed_on_close(fake):
    engine, _ = fake("stubborn", grace=0.3)
    popen = engine._process.popen
    began = time.monotonic()
    engine.close()
    assert time.monotonic() - began < 2 and _gone(popen)
    with pytest.raises(EngineError, match="closed"):
        engine(inarow.Board.gomoku(15))


@pytest.mark.parametrize(
    "board",
    [
        inarow.Board.connect_four(),
        inarow.Board(rules=inarow.Rules(width=15, height=15, k=5, players=3, gravity=False)),
        inarow.Board.tic_tac_toe(),
    ],
    ids=["gravity", "3 players", "k=3"],
)
def test_engine_refuses_rules_a_brain_cannot_play(fake, board):
    engine, log = fake("ok")
    with pytest.raises(inarow.UnsupportedRulesError, match="Gomocup brain"):
        engine(board)
    assert engine.pid is not None  # the engine was not disturbed


def test_engine_plays_other_line_lengths_when_told(fake):
    engine, _ = fake("ok", k=3)
    assert engine(inarow.Board.tic_tac_toe()) == 8


def test_engine_refuses_a_finished_board(fake):
    engine, _ = fake("ok")
    board = inarow.Board.gomoku(9)
    for action in (0, 9, 1, 10, 2, 11, 3, 12, 4):
        board.move(action)
    with pytest.raises(inarow.IllegalMoveError, match="over"):
        engine(board)


def test_engine_board_without_history_is_given_in_turn(fake):
    engine, log = fake("ok")
    grid = np.zeros((15, 15), dtype=np.int8)
    grid[7, 7], grid[7, 8], grid[0, 0] = 1, 2, 1
    board = inarow.Board.from_numpy(grid, inarow.Rules(15, 15, 5, gravity=False))
    assert engine(board) == 15 * 15 - 1
    lines = _log(log)
    at = lines.index("BOARD")
    assert lines[at + 1 : at + 5] == ["0,0,2", "8,7,1", "7,7,2", "DONE"]


def test_engine_pickles_as_an_unstarted_copy(fake):
    engine, _ = fake("ok", timeout_match=60.0)
    copy = pickle.loads(pickle.dumps(engine))
    try:
        assert repr(copy) == repr(engine) and "timeout_match=60.0" in repr(copy)
        assert copy.pid is None
        assert copy(inarow.Board.gomoku(15)) == 15 * 15 - 1
        assert copy.pid is not None and copy.pid != engine.pid
    finally:
        copy.close()


def test_engine_with_a_missing_program():
    with pytest.raises(FileNotFoundError):
        Gomocup("/nonexistent/pbrain-nothing")


def test_inarow_plays_gomocup_freestyle_where_an_overline_wins():
    board = inarow.Board.gomoku(15)
    for action in (0, 15, 1, 16, 3, 17, 4, 31, 5, 32):
        board.move(action)
    board.move(2)  # joins 2 + 3 stones into six in a row
    assert board.winner == 1 and len(board.winning_line()) == 6


def test_engine_is_an_opponent_of_the_gymnasium_env(fake):
    pytest.importorskip("gymnasium", reason="gymnasium is not installed")
    from inarow.gymnasium import InARowEnv

    engine, _ = fake("ok")
    env = InARowEnv(
        rules=inarow.Rules(width=9, height=7, k=5, gravity=False), opponent=engine, agent_player=2
    )
    obs, _ = env.reset(seed=0)
    assert obs["observation"][1, 6, 8] == 1  # the engine's "8,6", in the opponent's plane
    obs, *_ = env.step(0)
    assert obs["observation"][1, 6, 7] == 1  # and its answer, the next cell from the end


def test_the_default_brain_plays_the_threat_engine_on_gomoku_boards():
    from inarow.pbrain import BestWithinTime

    agent = BestWithinTime(seed=0)
    gomoku = inarow.Board.from_moves(
        [112, 113, 127, 98, 142], rules=inarow.Rules(width=15, height=15, k=5, gravity=False)
    )
    action = agent(gomoku.copy(), time_limit=0.2)
    assert gomoku.is_legal(action) and agent.negamax.depth == 0  # negamax never ran
    ttt = inarow.Board(rules=inarow.Rules(width=3, height=3, k=3, gravity=False))
    assert ttt.is_legal(agent(ttt, time_limit=0.2)) and agent.negamax.depth >= 1


# ------------------------------------------ chatter, grandchildren and limits (issue 56)


def _running(pid: int) -> bool:
    """The process exists and is no zombie."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _child_pid(log) -> int:
    (line,) = [line for line in _log(log) if line.startswith("child ")]
    return int(line.split()[1])


@pytest.mark.parametrize("mode", ["flood", "blank"])
def test_engine_chatter_cannot_outlast_the_deadline(fake, mode):
    from inarow.engines import MAX_QUEUED

    engine, _ = fake(mode)
    process = engine._process
    began = time.monotonic()
    with pytest.raises(EngineTimeout, match="did not answer 'BEGIN'"):
        engine(inarow.Board.gomoku(15))
    allowed = engine.timeout_turn + engine.grace + engine.startup_timeout
    assert time.monotonic() - began < allowed + 1.0  # the fake chatters for 4 s
    assert process.lines.qsize() <= MAX_QUEUED  # what is kept of the chatter is bounded
    assert engine.pid is None and _gone(process.popen)


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_engine_exiting_with_a_child_holding_its_output_is_reaped_whole(fake):
    engine, log = fake("orphan")
    popen = engine._process.popen
    began = time.monotonic()
    with pytest.raises(EngineError, match="exited with code 0"):
        engine(inarow.Board.gomoku(15))
    assert time.monotonic() - began < 5  # the child sleeps for 30 s
    assert engine.pid is None and _gone(popen)
    child = _child_pid(log)
    deadline = time.monotonic() + 2
    while _running(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(child)


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_engine_closed_with_a_child_holding_its_output_is_reaped_whole(fake):
    engine, log = fake("orphan_end")
    assert engine(inarow.Board.gomoku(15)) == 15 * 15 - 1
    popen = engine._process.popen
    began = time.monotonic()
    engine.close()
    assert time.monotonic() - began < 4  # the child sleeps for 30 s
    assert _gone(popen)
    child = _child_pid(log)
    deadline = time.monotonic() + 2
    while _running(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(child)


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("timeout_turn", float("inf")),
        ("timeout_turn", 1e12),
        ("timeout_turn", float("nan")),
        ("startup_timeout", 1e12),
        ("startup_timeout", float("inf")),
        ("grace", float("inf")),
        ("settle", 1e12),
        ("timeout_match", 1e12),
        ("timeout_match", float("nan")),
        ("timeout_match", -1.0),
    ],
)
def test_engine_refuses_limits_it_cannot_keep(setting, value):
    with pytest.raises(ValueError, match=rf"{setting} must be .*got {value!r}"):
        Gomocup([sys.executable, "-c", "pass"], _start=False, **{setting: value})


def test_engine_refuses_a_limit_that_is_no_number():
    with pytest.raises(TypeError, match="grace must be a number of seconds, got '1'"):
        Gomocup([sys.executable, "-c", "pass"], _start=False, grace="1")


def test_engine_with_an_infinite_match_time_has_no_match_limit(fake):
    engine, log = fake("ok", timeout_match=float("inf"))
    assert engine.timeout_match is None
    assert engine(inarow.Board.gomoku(15)) == 15 * 15 - 1
    lines = _log(log)
    assert "INFO timeout_match 0" in lines and "INFO time_left 2147483647" in lines


WIN_AT_ONCE = [
    "START 15",
    "BOARD",
    *(f"{x},0,1" for x in range(4)),
    *(f"{x},1,2" for x in range(4)),
]


@pytest.mark.parametrize("turn_ms", [6_000_000, 2_147_483_647])
def test_pbrain_caps_a_generous_manager_limit(turn_ms):
    from inarow.pbrain import MAX_AGENT_SECONDS, BestWithinTime

    agent = _Recorder(0)
    _serve(agent, "START 10", f"INFO timeout_turn {turn_ms}", "BEGIN")
    assert agent.limits == [MAX_AGENT_SECONDS]
    replies = _serve(
        BestWithinTime(seed=0),
        *WIN_AT_ONCE[:1],
        f"INFO timeout_turn {turn_ms}",
        *WIN_AT_ONCE[1:],
        "DONE",
    )
    assert replies == ["OK", "4,0"]  # the threat engine completes the five


@pytest.mark.parametrize("limit", ["4000", "inf"])
def test_pbrain_plays_with_a_time_limit_beyond_the_agents_range(limit):
    proc = subprocess.run(
        [*PBRAIN, "--time-limit", limit],
        input="\r\n".join([*WIN_AT_ONCE, "DONE", "END"]) + "\r\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["OK", "4,0"]


def test_engine_plays_a_board_of_its_rule_only(fake):
    renju = inarow.Board(rules=inarow.Rules.gomoku(15, rule="renju"))
    engine, _ = fake("ok")  # INFO rule 0
    with pytest.raises(inarow.UnsupportedRulesError, match=r"INFO rule 0.*rule='renju'"):
        engine(renju)
    engine, log = fake("ok", rule="renju")
    assert engine.rule == 4 and engine(renju) in renju.legal_moves()
    assert "INFO rule 4" in log.read_text()
    with pytest.raises(ValueError, match="rule='caro' is not a rule"):
        fake("ok", rule="caro")


@pytest.mark.parametrize("rule", ["standard", "renju"])
def test_pbrain_plays_standard_and_renju_through_the_gomocup_engine(rule):
    # inarow pbrain (the random agent plays every rule) driven by inarow.engines.Gomocup
    # with INFO rule 1 or 4: whole games, every engine move legal under the rule.
    engine = Gomocup([*PBRAIN, "--agent", "random", "--seed", "3"], rule=rule, timeout_turn=5)
    try:
        rng = np.random.default_rng(0)
        for _ in range(2):
            board = inarow.Board(rules=inarow.Rules.gomoku(9, rule=rule))
            while not board.is_over:
                if board.current_player == 1:
                    action = engine(board)
                else:
                    action = int(rng.choice(board.legal_moves()))
                assert action in board.legal_moves()
                board.move(action)
    finally:
        engine.close()


def _pbrain_lines(args: list[str], commands: list[str]) -> list[str]:
    """What `inarow pbrain ARGS` answers to `commands`, line by line."""
    proc = subprocess.run(
        [*PBRAIN, *args],
        input="\r\n".join(commands) + "\r\n",
        capture_output=True,
        text=True,
        timeout=30,
    )
    return proc.stdout.splitlines()


def test_pbrain_answers_error_to_a_rule_its_agent_cannot_play():
    # Negamax plays every rule: exactly five and renju are taken, caro is no rule.
    commands = ["START 9", "INFO rule 4", "INFO rule 1", "INFO rule 8", "BEGIN", "END"]
    lines = _pbrain_lines(["--agent", "negamax:1", "--seed", "0"], commands)
    assert lines[0] == "OK" and len(lines) == 3, lines
    assert lines[1].startswith("ERROR rule 8") and "caro" in lines[1]
    x, y = map(int, lines[2].split(","))  # BEGIN: a move under exactly five
    assert 0 <= x < 9 and 0 <= y < 9
    # The perfect agent does not play renju: the brain says so and keeps its rule.
    lines = _pbrain_lines(["--agent", "perfect", "--seed", "0"], ["START 9", "INFO rule 4", "END"])
    assert lines[0] == "OK" and len(lines) == 2, lines
    assert lines[1].startswith("ERROR rule 4") and "does not play it" in lines[1]
