"""A pytest plugin (an import hook) that ignores the mypyc-built ``.so``
files beside the sources, so the tests run the pure-Python modules although the compiled ones
are present: ``PYTHONPATH=$PWD:$PWD/scripts pytest -p pure_python ...``."""
import importlib.machinery as m
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "citywatch")
_SOURCE_ONLY = m.FileFinder.path_hook((m.SourceFileLoader, m.SOURCE_SUFFIXES),
                                      (m.SourcelessFileLoader, m.BYTECODE_SUFFIXES))


def _hook(path: str) -> object:
    if os.path.abspath(path).startswith(ROOT):
        return _SOURCE_ONLY(path)
    raise ImportError(path)


sys.path_hooks.insert(0, _hook)
sys.path_importer_cache.clear()
