import importlib.machinery as m, os, sys
root = os.path.join(os.getcwd(), "citywatch")
if sys.argv[1] == "pure":
    so = m.FileFinder.path_hook((m.SourceFileLoader, m.SOURCE_SUFFIXES),
                                (m.SourcelessFileLoader, m.BYTECODE_SUFFIXES))
    def hook(path):
        if os.path.abspath(path).startswith(root):
            return so(path)
        raise ImportError(path)
    sys.path_hooks.insert(0, hook); sys.path_importer_cache.clear()
sys.path.insert(0, "benchmarks")
import bench_engine as b, citywatch
citywatch.load("ankh-morpork")
if sys.argv[2] == "games":
    b.random_games("ankh-morpork", 4, int(sys.argv[3]), 1)
else:
    _, _, st = b.random_games("ankh-morpork", 4, 20, 1)
    b.ismcts_speed("ankh-morpork", st[len(st)//3:], profile=False)
