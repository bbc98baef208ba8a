"""A pytest plugin printing how many compiled (.so) citywatch modules the run loaded: ``-p report_compiled``."""
import sys
def pytest_sessionfinish(session):
    so = sorted(k for k, v in sys.modules.items() if k.startswith("citywatch") and (getattr(v, "__file__", "") or "").endswith(".so"))
    print(f"\n[{len(so)} compiled citywatch modules loaded]")
