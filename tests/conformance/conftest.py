"""The conformance suite imports the helpers of tests/ (sigint_helpers)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
