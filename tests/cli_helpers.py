"""Running ``duel`` in-process for the command-line tests of every game: a run, a success,
and a user error that must be exactly one ``Error: ...`` line (the last on stderr) with a
given exit code and no traceback."""
from click.testing import CliRunner

from duelpy.cli.main import main


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def ok(r):
    assert r.exit_code == 0, (r.output, r.exception)
    assert "Traceback" not in r.output
    return r


def one_error(r, *words, code=2):
    assert r.exit_code == code, (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    lines = [x for x in r.stderr.strip().splitlines() if x.startswith("Error: ")]
    assert len(lines) == 1 and r.stderr.strip().splitlines()[-1] == lines[0], r.stderr
    for w in words:
        assert w.lower() in lines[0].lower(), (w, lines[0])
    assert "Traceback" not in r.output
