import Foundation

/// STAND-IN for macOS's `security` command, for the keychain installer and `signing.cleanup`
/// tests on Linux. It is NOT Apple's tool: a Python script that checks each subcommand's
/// arguments as `man security` (macOS 14) documents them, keeps the keychains, search list,
/// default keychain, imported identities and partition lists in a JSON state file, opens the
/// imported PKCS#12 with Debian's `openssl pkcs12` and the `-P` password (so a wrong password
/// fails as the real import does), and answers errors with the real tool's messages and exit
/// codes (keychain not found: 50; already exists: 48; wrong password: 51).
///
/// Reference read (nothing copied): `man security` (create-keychain, set-keychain-settings,
/// unlock-keychain, list-keychains, default-keychain, delete-keychain, import,
/// set-key-partition-list); fastlane's setup_ci.rb, create_keychain.rb, delete_keychain.rb and
/// fastlane_core/keychain_importer.rb for the order in which CI tools call them.
///
/// The state file is `$SLIPWAY_SECURITY_STATE`; without that variable it is
/// `$HOME/Library/Keychains/.security-standin-state.json`, made at the first call with the same
/// initial login keychain (`installScript(in:)`; a simulated runner's jobs each have a HOME, so
/// each starts with no identity, as a fresh Mac does). Faults: `"fail": {"import": "echo-arguments"}`
/// in the state makes that subcommand fail and print its arguments (passwords included) to
/// standard error, as a careless tool might, so tests can check Slipway masks them.
public struct SecurityStandIn: Sendable {
    /// The script's path (executable).
    public let executable: String
    /// The state file's path.
    public let statePath: String

    /// Writes the script into `directory` and an initial state: a login keychain (password
    /// `login-password`) in `home/Library/Keychains`, alone in the search list and the default.
    public init(directory: String, home: String) throws {
        executable = directory + "/security"
        statePath = directory + "/security-state.json"
        try Data(Self.script.utf8).write(to: URL(fileURLWithPath: executable))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable)
        let login = home + "/Library/Keychains/login.keychain-db"
        try FileManager.default.createDirectory(atPath: home + "/Library/Keychains", withIntermediateDirectories: true)
        try Data("login keychain".utf8).write(to: URL(fileURLWithPath: login))
        try write(["keychains": [login: ["password": "login-password", "locked": false, "items": [] as [Any]]],
                   "search_list": [login], "default": login, "calls": [] as [Any]])
    }

    /// Writes only the script, as `directory/security`, for per-HOME state (no
    /// `SLIPWAY_SECURITY_STATE`); returns its path.
    @discardableResult
    public static func installScript(in directory: String) throws -> String {
        let executable = directory + "/security"
        try Data(script.utf8).write(to: URL(fileURLWithPath: executable))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable)
        return executable
    }

    /// The state file the script keeps under `home` when `SLIPWAY_SECURITY_STATE` is not set.
    public static func statePath(home: String) -> String { home + "/Library/Keychains/.security-standin-state.json" }

    /// The calls the script recorded in the state it keeps under `home` (each call's arguments,
    /// the subcommand first); empty when it never ran there.
    public static func calls(home: String) throws -> [[String]] {
        guard let data = FileManager.default.contents(atPath: statePath(home: home)) else { return [] }
        let state = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return state?["calls"] as? [[String]] ?? []
    }

    /// The environment the script needs (its state file), merged over `base`.
    public func environment(_ base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        base.merging(["SLIPWAY_SECURITY_STATE": statePath]) { _, new in new }
    }

    /// The current state.
    public func state() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: statePath))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Replaces the state.
    public func write(_ state: [String: Any]) throws {
        try JSONSerialization.data(withJSONObject: state, options: [.sortedKeys]).write(to: URL(fileURLWithPath: statePath))
    }

    /// Makes `subcommand` fail, printing its arguments to standard error.
    public func injectFailure(_ subcommand: String) throws {
        var current = try state()
        current["fail"] = [subcommand: "echo-arguments"]
        try write(current)
    }

    static let script = #"""
#!/usr/bin/env python3
# STAND-IN for macOS `security` (see Sources/TestSupport/SecurityStandIn.swift). Not Apple's tool.
import getopt, json, os, stat, subprocess, sys

HOME_STATE = "SLIPWAY_SECURITY_STATE" not in os.environ
STATE = os.environ.get("SLIPWAY_SECURITY_STATE") or os.path.join(os.environ["HOME"], "Library/Keychains/.security-standin-state.json")

def load():
    if HOME_STATE and not os.path.exists(STATE):
        # A fresh runner: its login keychain only, as SecurityStandIn's init writes it.
        login = os.path.join(os.environ["HOME"], "Library/Keychains/login.keychain-db")
        os.makedirs(os.path.dirname(login), exist_ok=True)
        with open(login, "w") as f:
            f.write("login keychain")
        return {"keychains": {login: {"password": "login-password", "locked": False, "items": []}},
                "search_list": [login], "default": login, "calls": []}
    with open(STATE) as f:
        return json.load(f)

def save(state):
    with open(STATE, "w") as f:
        json.dump(state, f, sort_keys=True, indent=1)

def fail(message, code=1):
    sys.stderr.write("security: " + message + "\n")
    sys.exit(code)

def usage(sub):
    fail("%s: invalid arguments (see man security)" % sub, 2)

def file_of(path):
    # macOS stores NAME.keychain as NAME.keychain-db.
    return path + "-db" if path.endswith(".keychain") else path

def key_of(state, path):
    for candidate in (path, file_of(path)):
        if candidate in state["keychains"]:
            return candidate
    return None

def need(state, path, api):
    key = key_of(state, path)
    if key is None or not os.path.exists(key):
        fail("%s %s: The specified keychain could not be found." % (api, path), 50)
    return key

def parse(sub, args, spec):
    try:
        return getopt.getopt(args, spec)
    except getopt.GetoptError:
        usage(sub)

def domain(sub, opts):
    d = dict(opts).get("-d", "user")
    if d not in ("user", "system", "common", "dynamic"):
        usage(sub)
    return d

def create_keychain(state, args):
    opts, rest = parse("create-keychain", args, "Pp:")
    opts = dict(opts)
    if "-P" in opts or "-p" not in opts or len(rest) != 1:
        usage("create-keychain")
    path = rest[0]
    if key_of(state, path) is not None:
        fail("SecKeychainCreate %s: A keychain with the same name already exists." % path, 48)
    key = file_of(path)
    with open(key, "w") as f:
        f.write("stand-in keychain\n")
    state["keychains"][key] = {"password": opts["-p"], "locked": False, "items": []}

def set_keychain_settings(state, args):
    opts, rest = parse("set-keychain-settings", args, "hlut:")
    if len(rest) != 1:
        usage("set-keychain-settings")
    key = need(state, rest[0], "SecKeychainSetSettings")
    opts = dict(opts)
    state["keychains"][key]["settings"] = {"lock-on-sleep": "-l" in opts, "timeout": int(opts.get("-t", "300")),
                                           "use-timeout": "-u" in opts}

def unlock_keychain(state, args):
    opts, rest = parse("unlock-keychain", args, "hup:")
    opts = dict(opts)
    if "-p" not in opts or len(rest) != 1:
        usage("unlock-keychain")
    key = need(state, rest[0], "SecKeychainUnlock")
    if state["keychains"][key]["password"] != opts["-p"]:
        fail("SecKeychainUnlock %s: The user name or passphrase you entered is not correct." % rest[0], 51)
    state["keychains"][key]["locked"] = False

def list_keychains(state, args):
    opts, rest = parse("list-keychains", args, "hd:s")
    domain("list-keychains", opts)
    if "-s" in dict(opts):
        for path in rest:
            need(state, path, "SecKeychainOpen")
        state["search_list"] = [key_of(state, p) for p in rest]
    elif rest:
        usage("list-keychains")
    else:
        for path in state["search_list"]:
            print('    "%s"' % path)

def default_keychain(state, args):
    opts, rest = parse("default-keychain", args, "hd:s")
    domain("default-keychain", opts)
    if "-s" in dict(opts):
        if len(rest) != 1:
            usage("default-keychain")
        state["default"] = need(state, rest[0], "SecKeychainSetDefault")
    elif rest:
        usage("default-keychain")
    elif state.get("default") is None:
        fail("SecKeychainCopyDefault: A default keychain could not be found.", 1)
    else:
        print('    "%s"' % state["default"])

def delete_keychain(state, args):
    opts, rest = parse("delete-keychain", args, "h")
    if not rest:
        usage("delete-keychain")
    for path in rest:
        key = key_of(state, path)
        if key is None or not os.path.exists(key):
            fail("SecKeychainDelete: The specified keychain could not be found.", 50)
        os.remove(key)
        del state["keychains"][key]
        state["search_list"] = [p for p in state["search_list"] if p != key]

def import_item(state, args):
    if not args or args[0].startswith("-"):
        usage("import")
    source, (opts, rest) = args[0], parse("import", args[1:], "k:t:f:wP:AT:x")
    if rest:
        usage("import")
    values = {}
    trusted = []
    for name, value in opts:
        if name == "-T":
            trusted.append(value)
        else:
            values[name] = value
    if values.get("-f", "pkcs12") not in ("openssl", "openssh1", "openssh2", "bsafe", "raw", "pkcs7", "pkcs8", "pkcs12",
                                          "netscape", "pemseq"):
        usage("import")
    key = need(state, values.get("-k", state.get("default") or ""), "SecKeychainItemImport")
    if state["keychains"][key]["locked"]:
        fail("SecKeychainItemImport: User interaction is not allowed.", 1)
    mode = stat.S_IMODE(os.stat(source).st_mode)
    env = dict(os.environ, STANDIN_P12_PASSWORD=values.get("-P", ""))
    opened = subprocess.run(["openssl", "pkcs12", "-in", source, "-nokeys", "-passin", "env:STANDIN_P12_PASSWORD"],
                            capture_output=True, env=env)
    if opened.returncode != 0:
        fail("SecKeychainItemImport: MAC verification failed during PKCS12 import (wrong password?)", 1)
    fingerprint = subprocess.run(["openssl", "x509", "-noout", "-fingerprint", "-sha1"], input=opened.stdout,
                                 capture_output=True).stdout.decode().strip().split("=")[-1].replace(":", "")
    items = state["keychains"][key]["items"]
    if any(item["sha1"] == fingerprint for item in items):
        fail("SecKeychainItemImport: The specified item already exists in the keychain.", 1)
    items.append({"sha1": fingerprint, "trusted": trusted, "partition": None, "file_mode": "%o" % mode,
                  "format": values.get("-f")})
    print("1 identity imported.")

def set_key_partition_list(state, args):
    opts, rest = parse("set-key-partition-list", args, "a:c:d:D:j:l:rsuS:k:")
    opts = dict(opts)
    if "-S" not in opts or "-k" not in opts or len(rest) != 1:
        usage("set-key-partition-list")
    key = need(state, rest[0], "SecKeychainOpen")
    if state["keychains"][key]["password"] != opts["-k"]:
        fail("SecKeychainItemSetAccessWithPassword: The user name or passphrase you entered is not correct.", 1)
    for item in state["keychains"][key]["items"]:
        if "-s" in opts:
            item["partition"] = opts["-S"].split(",")
    print("keychain: \"%s\"" % key)

COMMANDS = {"create-keychain": create_keychain, "set-keychain-settings": set_keychain_settings,
            "unlock-keychain": unlock_keychain, "list-keychains": list_keychains, "default-keychain": default_keychain,
            "delete-keychain": delete_keychain, "import": import_item, "set-key-partition-list": set_key_partition_list}

def main():
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        fail("unknown command", 1)
    state = load()
    sub, args = sys.argv[1], sys.argv[2:]
    state["calls"].append([sub] + args)
    save(state)
    if state.get("fail", {}).get(sub) == "echo-arguments":
        fail("%s refused: %s" % (sub, " ".join(args)), 1)
    COMMANDS[sub](state, args)
    save(state)

main()
"""#
}
