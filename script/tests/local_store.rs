//! The local store (`game.Store`): every limit with its message, exact round trips (also
//! across a restart of the host), failed commits logged and retried, shutdown waiting for
//! durability, and rows no `put` could write. `kill -9` of a writing server:
//! `local_store_kill.rs`.

mod common;
mod local_common;

use arbor_script::{HostConfig, Level, StoreStats};
use common::Running;
use local_common::{TempDir, config, start, stats};
use std::time::{Duration, Instant};

/// Ticks until `done(stats)`, at most `limit`.
fn tick_until(running: &mut Running, limit: Duration, done: impl Fn(&StoreStats) -> bool) -> StoreStats {
    let start = Instant::now();
    loop {
        let s = stats(running);
        if done(&s) {
            return s;
        }
        assert!(start.elapsed() < limit, "timed out waiting; stats {s:?}");
        running.tick(1);
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// `label: message` lines printed by the probing script below (`try`), by label.
fn outcomes(log: &[String]) -> Vec<(String, String)> {
    log.iter()
        .filter_map(|l| l.strip_prefix("Workspace.Main: "))
        .filter_map(|l| l.split_once(" => "))
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
        .collect()
}

/// Luau helpers: `try(label, f, ...)` prints `label => ok` or `label => <message>` (the
/// message without its position: the call is made by `pcall` itself).
const TRY: &str = "
local function try(label, f, ...)
    local ok, e = pcall(f, ...)
    print(label .. ' => ' .. (if ok then 'ok' else tostring(e)))
end
local function nest(n)
    local t = {}
    for _ = 2, n do
        t = { t }
    end
    return t
end
";

#[test]
fn every_limit_is_checked_before_anything_is_stored() {
    let dir = TempDir::new("limits");
    let source = format!(
        "{TRY}
local s = game.Store.open('Limits')
local put, get = s.put, s.get
try('depth 8', put, s, 'd8', nest(8))
try('depth 9', put, s, 'd9', nest(9))
try('64 KiB', put, s, 'big', {{ string.rep('x', 65528) }})
try('64 KiB + 1', put, s, 'big', {{ string.rep('x', 65529) }})
print('big kept', #get(s, 'big')[1])
try('function', put, s, 'f', {{ print }})
try('instance', put, s, 'f', {{ part = workspace }})
try('thread', put, s, 'f', {{ coroutine.create(print) }})
try('buffer', put, s, 'f', {{ buffer.create(4) }})
try('nan', put, s, 'f', {{ x = 0 / 0 }})
try('inf', put, s, 'f', {{ x = math.huge }})
try('vector inf', put, s, 'f', {{ Vector3.new(0, -math.huge, 0) }})
try('cycle', put, s, 'f', (function() local t = {{}} t.inner = {{ t }} return t end)())
try('metatable', put, s, 'f', {{ setmetatable({{}}, {{}}) }})
try('table key', put, s, 'f', {{ [{{}}] = 1 }})
try('vector key', put, s, 'f', {{ [Vector3.new(1, 2, 3)] = 1 }})
try('number value', put, s, 'f', 5)
try('nil value', put, s, 'f', nil)
print('nothing stored', get(s, 'f') == nil and get(s, 'd9') == nil)
try('empty key', put, s, '', {{}})
try('long key', put, s, string.rep('k', 51), {{}})
try('50 chars', put, s, string.rep('é', 50), {{}})
try('control key', put, s, 'a\\nb', {{}})
try('fraction key', put, s, 1.5, {{}})
try('2^53 key', put, s, 2^53, {{}})
try('-2^53 key', put, s, -2^53, {{}})
try('2^53+2 key', put, s, 2^53 + 2, {{}})
try('boolean key', put, s, true, {{}})
try('get bad key', get, s, {{}})
try('dot call', s.put, 'k', {{}})
try('empty name', game.Store.open, '')
try('long name', game.Store.open, string.rep('n', 51))
try('number name', game.Store.open, 5)
try('member', function() return s.Delete end)
-- Keys: 'Limits' holds d8, big, 50 chars, 2^53, -2^53 so far.
local n = 0
for k = 1, 4096 do
    local ok = pcall(put, s, k, {{ k }})
    if not ok then break end
    n = k
end
print('keys accepted', n)
try('new key past the limit', put, s, 'one more', {{}})
try('overwrite at the limit', put, s, 7, {{ 'seven' }})
print('overwritten', get(s, 7)[1])
local opened = {{ s }}
for i = 1, 7 do
    opened[i + 1] = game.Store.open('S' .. i)
end
try('ninth store', game.Store.open, 'S8')
print('same object', rawequal(game.Store.open('Limits'), s), rawequal(game.Store.open('S3'), opened[4]))
print('typeof', typeof(s), tostring(s))
print('metatable hidden', type(getmetatable(s)) ~= 'table')
"
    );
    // The chunk fills a store to its 4,096-key limit in one entry; the wall-clock backstop
    // is off so a loaded machine cannot cut it short (this test is about the store's limits).
    let mut running = start(HostConfig { wall_bound: None, ..config(Some(&dir.0)) }, &source);
    running.tick(1);
    let log = running.log();
    let got = outcomes(&log);
    let find = |label: &str| {
        got.iter()
            .find(|(l, _)| l == label)
            .map(|(_, m)| m.as_str())
            .unwrap_or_else(|| panic!("no {label} in {log:#?}"))
    };
    let types = "stores can hold numbers, booleans, strings, Vector3 values and tables, not";
    let keys = "store keys are integers or strings of 1 to 50 printable characters, not";
    let names = "store names are strings of 1 to 50 printable characters, not";
    for (label, want) in [
        ("depth 8", "ok".to_owned()),
        ("depth 9", "store value is nested deeper than 8 levels".to_owned()),
        ("64 KiB", "ok".to_owned()),
        ("64 KiB + 1", "store value is 65537 bytes encoded; the limit is 65536".to_owned()),
        ("function", format!("{types} a function")),
        ("instance", format!("{types} an Instance")),
        ("thread", format!("{types} a thread")),
        ("buffer", format!("{types} a buffer")),
        ("nan", "stores can hold finite numbers only, not nan".to_owned()),
        ("inf", "stores can hold finite numbers only, not inf".to_owned()),
        ("vector inf", "stores can hold finite numbers only, not a Vector3 with a component -inf".to_owned()),
        ("cycle", "store value contains a table inside itself".to_owned()),
        ("metatable", "stores can hold plain tables only, not a table with a metatable".to_owned()),
        ("table key", "store table keys are numbers, strings or booleans, not a table".to_owned()),
        ("vector key", "store table keys are numbers, strings or booleans, not a Vector3".to_owned()),
        ("number value", "store:put expects a table as the value, not the number 5".to_owned()),
        ("nil value", "store:put expects a table as the value, not nil".to_owned()),
        ("empty key", format!("{keys} an empty string")),
        ("long key", format!("{keys} a string of 51 characters")),
        ("50 chars", "ok".to_owned()),
        ("control key", format!("{keys} a string with a control character")),
        ("fraction key", format!("{keys} the number 1.5")),
        ("2^53 key", "ok".to_owned()),
        ("-2^53 key", "ok".to_owned()),
        ("2^53+2 key", format!("{keys} the number 9007199254740994")),
        ("boolean key", format!("{keys} a boolean")),
        ("get bad key", format!("{keys} a table")),
        ("dot call", "expected a Store (use ':' to call methods)".to_owned()),
        ("empty name", format!("{names} an empty string")),
        ("long name", format!("{names} a string of 51 characters")),
        ("number name", format!("{names} the number 5")),
        ("new key past the limit", "store 'Limits' already holds 4096 keys".to_owned()),
        ("overwrite at the limit", "ok".to_owned()),
        ("ninth store", "a place can open at most 8 stores".to_owned()),
    ] {
        assert_eq!(find(label), want, "{label}");
    }
    assert!(find("member").ends_with("Delete is not a valid member of Store"), "{}", find("member"));
    for line in [
        "Workspace.Main: big kept 65528",
        "Workspace.Main: nothing stored true",
        // 5 keys before the loop; 4091 more fit.
        "Workspace.Main: keys accepted 4091",
        "Workspace.Main: overwritten seven",
        "Workspace.Main: same object true true",
        "Workspace.Main: typeof Store Store(Limits)",
        "Workspace.Main: metatable hidden true",
    ] {
        assert!(log.iter().any(|l| l == line), "{line} not in {log:#?}");
    }
    running.host.borrow_mut().shutdown_stores();
    let s = stats(&running);
    assert_eq!((s.open_stores, s.durable_puts), (8, s.accepted_puts));
}

#[test]
fn errors_raise_at_the_callers_line() {
    let dir = TempDir::new("line");
    let mut running = start(config(Some(&dir.0)), "local s = game.Store.open('L')\n\ns:put('k', { print })");
    running.tick(1);
    let want = "init error in Workspace.Main: Workspace.Main:3: stores can hold numbers, booleans, \
                strings, Vector3 values and tables, not a function";
    assert!(running.log().iter().any(|l| l == want), "{:#?}", running.log());
}

#[test]
fn opening_needs_a_data_directory_and_a_server() {
    let probe = format!("{TRY}\ntry('open', game.Store.open, 'S')");
    let mut running = start(config(None), &probe);
    running.tick(1);
    assert_eq!(
        outcomes(&running.log()),
        [(
            "open".to_owned(),
            "game.Store needs a data directory (start the server with --data DIR)".to_owned()
        )]
    );
    let dir = TempDir::new("client");
    let mut running = start(HostConfig { client: true, ..config(Some(&dir.0)) }, &probe);
    running.tick(1);
    assert_eq!(outcomes(&running.log()), [("open".to_owned(), "game.Store is server-only".to_owned())]);
    assert!(!dir.file().exists(), "a client host opened no file");
}

/// Builds the same values every time, one of every kind and edge.
const VALUES: &str = "
local function values()
    local deep = { 'bottom' }
    for _ = 1, 6 do
        deep = { deep }
    end
    return {
        [1] = { int = 42, neg = -7, zero = 0, negzero = -0.0, tiny = 5e-324, small = 2.2250738585072014e-308,
            huge = 1.7976931348623157e308, third = 1 / 3, big = 2^53, bigneg = -2^53, beyond = 2^53 + 2,
            far = 2^60, below = 2^53 - 1 },
        [2] = { s = 'a\\0b\\255', empty = '', long = string.rep('é', 1000), yes = true, no = false },
        [3] = { v = Vector3.new(1.5, -0.0, 3.4e38), w = Vector3.new(1e-45, -1, 0.1) },
        [4] = { 1, 2, 3, 'four', { 5 } },
        [5] = { [1] = 1, [3] = 3, [0] = 0, [-1] = -1, [1.5] = 'f', [2^53] = 'b', [true] = 't', [false] = 'n', x = 'y' },
        [6] = deep,
        [7] = {},
        [8] = { string.rep('x', 65528) },
    }
end
local function same(a, b)
    if type(a) ~= type(b) then
        return false
    elseif type(a) == 'number' then
        return string.pack('<d', a) == string.pack('<d', b)
    elseif type(a) == 'vector' then
        return string.pack('<fff', a.x, a.y, a.z) == string.pack('<fff', b.x, b.y, b.z)
    elseif type(a) == 'table' then
        for k, v in a do
            if not same(v, b[k]) then
                return false
            end
        end
        for k in b do
            if a[k] == nil then
                return false
            end
        end
        return true
    end
    return a == b
end
local keys = { 7, 'seven', 2^53, -2^53, '1', 1, 'é', 0 }
";

#[test]
fn values_round_trip_exactly_and_survive_a_restart() {
    let dir = TempDir::new("roundtrip");
    let writer = format!(
        "{VALUES}
local s = game.Store.open('Kinds')
for i, v in values() do
    s:put(keys[i], v)
end
local fresh = values()
local all = true
for i in fresh do
    all = all and same(s:get(keys[i]), fresh[i])
end
print('same now', all)
local got = s:get(7)
got.int = 0
got.added = true
print('fresh copy', s:get(7).int, s:get(7).added)
print('1 and \"1\" differ', s:get('1').x == 'y', s:get(1).x == nil)
print('absent', s:get('nothing'))
"
    );
    let mut running = start(config(Some(&dir.0)), &writer);
    running.tick(1);
    running.host.borrow_mut().shutdown_stores();
    let log = running.log();
    for line in [
        "Workspace.Main: same now true",
        "Workspace.Main: fresh copy 42 nil",
        "Workspace.Main: 1 and \"1\" differ true true",
        "Workspace.Main: absent nil",
    ] {
        assert!(log.iter().any(|l| l == line), "{line} not in {log:#?}");
    }
    drop(running);

    let reader = format!(
        "{VALUES}
local s = game.Store.open('Kinds')
local fresh = values()
for i in fresh do
    print('after restart', keys[i], same(s:get(keys[i]), fresh[i]))
end
"
    );
    let mut running = start(config(Some(&dir.0)), &reader);
    running.tick(1);
    let log = running.log();
    let lines: Vec<&String> = log.iter().filter(|l| l.contains("after restart")).collect();
    assert_eq!(lines.len(), 8, "{log:#?}");
    assert!(lines.iter().all(|l| l.ends_with(" true")), "{log:#?}");
}

#[test]
fn a_failed_commit_is_logged_with_its_keys_and_retried() {
    let dir = TempDir::new("retry");
    let mut running = start(
        config(Some(&dir.0)),
        "local s = game.Store.open('Lock')
         local n = 0
         function Update()
             n += 1
             s:put('gold', { n = n })
             s:put(7, { n = n })
         end",
    );
    tick_until(&mut running, Duration::from_secs(10), |s| s.durable_puts >= 2 && s.pending_puts() == 0);

    // Another connection takes the write lock: the writer's commits fail (`database is
    // locked` after its busy timeout) until it is released.
    let blocker = rusqlite::Connection::open(dir.file()).unwrap();
    blocker.execute_batch("BEGIN IMMEDIATE").unwrap();
    let failed = tick_until(&mut running, Duration::from_secs(10), |s| s.failed_commits >= 2);
    let log = running.host.borrow().log();
    let line = log
        .iter()
        .find(|l| l.level == Level::Error && l.text.starts_with("local store: commit failed"))
        .unwrap_or_else(|| panic!("no failure line in {log:#?}"));
    assert!(line.text.contains("database is locked"), "{}", line.text);
    assert!(line.text.contains("are kept and retried: Lock[7], Lock[\"gold\"]"), "{}", line.text);
    assert!(failed.durable_puts < failed.accepted_puts);

    blocker.execute_batch("ROLLBACK").unwrap();
    let target = stats(&running).accepted_puts;
    tick_until(&mut running, Duration::from_secs(10), |s| s.durable_puts >= target);
    let log = running.host.borrow().log();
    assert!(
        log.iter().any(|l| l.level == Level::Warn && l.text.starts_with("local store: commit landed after")),
        "{log:#?}"
    );
    running.host.borrow_mut().shutdown_stores();
    let s = stats(&running);
    assert_eq!(s.durable_puts, s.accepted_puts);
    let target = s.accepted_puts;
    drop(running);

    let reader = start(
        config(Some(&dir.0)),
        "local s = game.Store.open('Lock') print('n', s:get('gold').n == s:get(7).n, s:get('gold').n)",
    );
    let mut reader = reader;
    reader.tick(1);
    let log = reader.log();
    let n: u64 = log
        .iter()
        .find_map(|l| l.strip_prefix("Workspace.Main: n true "))
        .unwrap_or_else(|| panic!("{log:#?}"))
        .parse()
        .unwrap();
    assert_eq!(n * 2, target, "the last put before shutdown is what a restart reads");
}

#[test]
fn shutdown_and_drop_wait_until_every_put_is_durable() {
    let dir = TempDir::new("shutdown");
    let source = "local s = game.Store.open('Many')
         local round = 0
         function Update()
             round += 1
             for k = 1, 500 do
                 s:put(k, { round = round, k = k })
             end
         end";
    let mut running = start(config(Some(&dir.0)), source);
    running.tick(3);
    running.host.borrow_mut().shutdown_stores();
    let s = stats(&running);
    assert_eq!((s.accepted_puts, s.durable_puts), (1500, 1500));
    // Dropped without a shutdown: the writer still lands the last tick's puts.
    running.tick(1);
    drop(running);
    let db = rusqlite::Connection::open(dir.file()).unwrap();
    let check: String = db.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(check, "ok");
    let rows: i64 = db.query_row("SELECT count(*) FROM kv WHERE store = 'Many'", [], |r| r.get(0)).unwrap();
    assert_eq!(rows, 500);
    drop(db);
    let mut reader = start(
        config(Some(&dir.0)),
        "local s = game.Store.open('Many') local ok = true
         for k = 1, 500 do ok = ok and s:get(k).round == 4 and s:get(k).k == k end print('all round 4', ok)",
    );
    reader.tick(1);
    assert!(reader.log().iter().any(|l| l == "Workspace.Main: all round 4 true"), "{:#?}", reader.log());
}

#[test]
fn rows_no_put_could_write_are_refused_not_skipped() {
    // A row with an unparseable key was once skipped without a word (and still counted
    // towards the store's 4,096 keys); a lone value put refuses was returned by get.
    let dir = TempDir::new("foreign");
    let mut running = start(config(Some(&dir.0)), "game.Store.open('Good'):put(1, { x = 1 })");
    running.tick(1);
    running.host.borrow_mut().shutdown_stores();
    drop(running);
    let db = rusqlite::Connection::open(dir.file()).unwrap();
    db.execute("INSERT INTO kv (store, key, value) VALUES ('Bad', 'x:1', X'00')", []).unwrap();
    // Format version 1, then `true`: a value the decoder reads, but not a table.
    db.execute("INSERT INTO kv (store, key, value) VALUES ('Lone', 's:a', X'0101')", []).unwrap();
    drop(db);
    let mut running = start(
        config(Some(&dir.0)),
        "print(pcall(game.Store.open, 'Bad'))\n\
         print(pcall(function() return game.Store.open('Lone'):get('a') end))\n\
         print(game.Store.open('Good'):get(1).x)",
    );
    running.tick(1);
    let log = running.log();
    assert!(
        log[0].starts_with("Workspace.Main: false store file ")
            && log[0].ends_with(
                "could not be opened: store 'Bad' holds a row whose key \"x:1\" is not a store key (an integer \
                 or 1 to 50 printable characters)"
            ),
        "{log:?}"
    );
    assert!(log[1].starts_with("Workspace.Main: false "), "{log:?}");
    assert!(log[1].ends_with("store 'Lone' key \"a\": corrupt value (not a table)"), "{log:?}");
    assert_eq!(log[2], "Workspace.Main: 1");
}
