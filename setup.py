"""Build of the Cython core (src/duelcore): one package per game (duel/, seven/, architects/)
and the pieces every game shares (common/).

Cython directives are set here, once.  ``DUEL_DEBUG=1 pip install -e .`` builds the debug
variant: bounds and wrap-around checks on, and a full ``state_check`` after every action (a
broken invariant aborts with its code).
"""
import os
import platform
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("DUEL_DEBUG", "0") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": True,
    "initializedcheck": DEBUG,
    "nonecheck": False,
    "embedsignature": True,
}
macros = [("DUEL_DEBUG", "1" if DEBUG else "0"), ("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]
cflags = ["-O0", "-g"] if DEBUG else ["-O3"]
if platform.machine().lower() in ("x86_64", "amd64"):
    cflags.append("-mpopcnt")       # hardware popcount for the card bitsets (every x86-64-v2 CPU)
# Link libm by name: unlinked, exp and log bind to glibc's oldest symbol versions, whose
# wrappers check errno on every call (the same results, a third more instructions).
libraries = ["m"] if sys.platform.startswith("linux") else []

# The compiled modules, "folder.module" under src/duelcore (a new game: its folder, one line).
MODULES = (
    "common.stop",                  # the process-wide Ctrl-C stop flag of every game
    "duel.engine", "duel.search", "duel.kernels",       # 7 Wonders Duel
    "seven.engine",                 # 7 Wonders (rules, Python face and agents in one module)
    "architects.engine",            # 7 Wonders Architects (the same: one module)
)
# DUEL_EXT=a,b builds only those extensions (a quick in-place rebuild): a module
# ("duel.search") or a whole folder ("seven").
only = [m for m in os.environ.get("DUEL_EXT", "").split(",") if m]
extensions = [
    Extension(f"duelcore.{name}", [f"src/duelcore/{name.replace('.', '/')}.pyx"],
              include_dirs=[numpy.get_include()], define_macros=macros,
              extra_compile_args=cflags, libraries=libraries)
    for name in MODULES
    if not only or any(name == m or name.startswith(m + ".") for m in only)
]

setup(
    ext_modules=cythonize(extensions, compiler_directives=directives,
                          include_path=["src"],
                          build_dir="build/cython-debug" if DEBUG else "build/cython"),
)
