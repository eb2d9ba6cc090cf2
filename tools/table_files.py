"""What the table generators under tools/ share: write the data files they
render, or with `--check` fail where a committed file differs."""
import os
import sys


def write_or_check(files, source):
    """Writes each path of `files` (path -> bytes), or with `--check` in
    the arguments exits with an error at the first committed file that
    differs from what `source` (the library asked) says on this machine.
    Returns whether the files were written."""
    if "--check" in sys.argv:
        for path, data in files.items():
            with open(path, "rb") as f:
                if f.read() != data:
                    sys.exit(f"{path} differs from what {source} says on this machine")
        return False
    for path, data in files.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    return True
