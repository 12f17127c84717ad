# Fetches the sdist of NAME==VERSION (VERSION empty: the newest) through
# pip's own index configuration, session and link finder, without preparing
# its metadata: an old sdist's setup.py may no longer run on this Python.
# Prints "PATH<TAB>ALG:HEX"; exit 3 when there is no such sdist, 4 when the
# file does not match the hash the index gives.
import hashlib
import os
import sys

from pip._internal.commands import create_command
from pip._vendor.packaging.specifiers import SpecifierSet

name, version, dest = sys.argv[1:4]
requirement = f"{name}=={version}" if version else name
cmd = create_command("download")
options, _ = cmd.parse_args(["--no-deps", "--no-binary=:all:", "-d", dest, requirement])
with cmd.main_context():
    session = cmd.get_default_session(options)
    finder = cmd._build_package_finder(
        options=options, session=session, ignore_requires_python=True
    )
    wanted = SpecifierSet(f"=={version}") if version else SpecifierSet()
    best = finder.find_best_candidate(name, wanted).best_candidate
    if best is None:
        sys.exit(3)
    link = best.link
    response = session.get(link.url_without_fragment, stream=True)
    response.raise_for_status()
    path = os.path.join(dest, link.filename)
    digest = hashlib.new(link.hash_name) if link.hash_name else hashlib.sha256()
    with open(path, "wb") as out:
        for chunk in response.iter_content(1 << 16):
            out.write(chunk)
            digest.update(chunk)
    if link.hash and digest.hexdigest() != link.hash:
        os.remove(path)
        sys.exit(4)
    print(f"{path}\t{digest.name}:{digest.hexdigest()}")
