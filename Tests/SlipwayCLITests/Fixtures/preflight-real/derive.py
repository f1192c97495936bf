#!/usr/bin/env python3
"""Writes APP.history: an app's App Store Connect history as its repository tells it, for
PreflightRealAppsTests (see MANIFEST.md beside this file). Run by hand, never by the tests:

    derive.py ivpn|pocket-casts|simplenote|mastodon CLONE COMMIT TAGS... > APP.history

CLONE is a clone of the app's repository (with its tags), COMMIT the commit of the fixture, TAGS
the files listing the tags that existed at that commit (the fixture's tags.txt, and ivpn's
tags-off-head.txt), oldest first. Lines: `released VERSION` (a version made
available on the App Store) and `build VERSION NUMBER` (a build uploaded for VERSION), each with
its source after `#`.
"""
import re
import subprocess
import sys


def git(clone, *args):
    result = subprocess.run(["git", "-C", clone, *args], capture_output=True, text=True)
    return result.stdout if result.returncode == 0 else None


def configurations(text, bundle_id, name="Release"):
    """(MARKETING_VERSION, CURRENT_PROJECT_VERSION) of the configurations `name` whose bundle id is `bundle_id`."""
    found = set()
    for match in re.finditer(r"isa = XCBuildConfiguration;(.*?)\n\t\t\};", text or "", re.S):
        block = match.group(1)

        def value(key):
            hit = re.search(key + r' = "?([^;"]*)"?;', block)
            return hit.group(1) if hit else None
        if value("PRODUCT_BUNDLE_IDENTIFIER") == bundle_id and value("name") == name:
            found.add((value("MARKETING_VERSION"), value("CURRENT_PROJECT_VERSION")))
    return found


def xcconfig(text):
    return dict(re.findall(r"^\s*(\w+)\s*=\s*(\S+)", text or "", re.M))


def main(app, clone, commit, *lists):
    plain = re.compile(r"v?(\d+(?:\.\d+){0,2})")
    tags = []
    for name in lists:
        tags += [tag for tag in open(name).read().split() if tag not in tags]
    print("# %s at %s: %d tags read" % (app, commit, len(tags)))
    for tag in tags:
        release = plain.fullmatch(tag)
        if app == "ivpn":
            if not release:
                print("# skipped tag %s: not a version" % tag)
                continue
            print("released %s  # tag %s" % (release.group(1), tag))
            pairs = configurations(git(clone, "show", tag + ":IVPNClient.xcodeproj/project.pbxproj"), "net.ivpn.clients.ios")
            for version, build in sorted(pairs):
                if version == release.group(1):
                    print("build %s %s  # tag %s: IVPNClient's Release CURRENT_PROJECT_VERSION" % (version, build, tag))
                else:
                    print("# no build for tag %s: the project holds %s (%s) there, not the tag's version" % (tag, version, build))
        elif app in ("pocket-casts", "simplenote"):
            if release:
                print("released %s  # tag %s" % (release.group(1), tag))
            elif not re.fullmatch(r"\d+(\.\d+)*(_\d+)?", tag):
                print("# skipped tag %s: not a version or a build" % tag)
                continue
            values = {}
            for path in ("config/Version.xcconfig", "config/Version.Public.xcconfig"):
                values.update(xcconfig(git(clone, "show", "%s:%s" % (tag, path))))
            if "VERSION_SHORT" in values and "VERSION_LONG" in values:
                print("build %s %s  # tag %s: VERSION_SHORT, VERSION_LONG" % (values["VERSION_SHORT"], values["VERSION_LONG"], tag))
            else:
                print("# no build for tag %s: no VERSION_SHORT/VERSION_LONG in config/ there" % tag)
        elif app == "mastodon":
            pair = re.fullmatch(r"(\d+\.\d+(?:\.\d+)?)-(\d+)", tag)
            numbered = re.fullmatch(r"build-(\d+)", tag)
            if release:
                print("released %s  # tag %s" % (release.group(1), tag))
            elif pair:
                print("build %s %s  # tag %s" % (pair.group(1), pair.group(2), tag))
            elif numbered:
                versions = xcconfig(git(clone, "show", tag + ":AppVersion.xcconfig"))
                if "MARKETING_VERSION" in versions:
                    print("build %s %s  # tag %s, AppVersion.xcconfig" % (versions["MARKETING_VERSION"], numbered.group(1), tag))
                else:
                    pairs = configurations(git(clone, "show", tag + ":Mastodon.xcodeproj/project.pbxproj"), "org.joinmastodon.app")
                    for version in sorted({v for v, _ in pairs}):
                        print("build %s %s  # tag %s, the app's Release MARKETING_VERSION" % (version, numbered.group(1), tag))
            else:
                print("# skipped tag %s" % tag)


if __name__ == "__main__":
    main(*sys.argv[1:])
