#!/usr/bin/env bash
# Issue 20's hostile and extreme inputs, each through the CLI with a time limit.
#
#   bench/extremes.sh [-j cli/target/domino.jar] [-v VOCAB] [-t SECONDS] [-o results.tsv] [-k] [CASE_NAME_REGEX]
#
# Every case must end within the limit (default 30 s) with its promised exit code: 0 with a correct
# result (checked on the output where the case says how), 2 for bad input, 3 for a bad artifact; an
# error is ONE stderr line starting "error: " with no stack trace. Prints one row per case (expected
# and actual exit code, wall and CPU seconds (user + sys: on a loaded machine the wall time is mostly
# waiting), one-line stderr?, verdict) and the stderr line; exit code 1 if a case failed. -v: the vocabulary of the grammar cases (default o200k_base, as a user would run them;
# a small .tiktoken makes the run faster). -k keeps the work directory. Run from the repository root
# after `mvn -q package -DskipTests`; the Java API cases (lone surrogates, huge bitmask rows) are
# cli/src/test/java/dev/domino/cli/ExtremeInputsTest.java.
set -u
JAR=cli/target/domino.jar
VOCAB=o200k_base
LIMIT=30
OUT=
KEEP=
while getopts "j:v:t:o:k" opt; do
    case $opt in
        j) JAR=$OPTARG ;; v) VOCAB=$OPTARG ;; t) LIMIT=$OPTARG ;; o) OUT=$OPTARG ;; k) KEEP=1 ;;
        *) sed -n '2,14p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
ONLY=${1:-.}
JAR=$(realpath "$JAR")
[ -f "$JAR" ] || { echo "no $JAR: run mvn -q package -DskipTests first" >&2; exit 2; }
JAVA=${JAVA:-java}
W=$(mktemp -d "${TMPDIR:-/tmp}/domino-extremes.XXXXXX")
[ -n "$KEEP" ] && echo "work directory: $W" >&2 || trap 'rm -rf "$W"' EXIT
cd "$W"
FAILED=0
ROWS=()
printf '%-34s %-6s %-4s %7s %7s %-8s %s\n' case expect exit seconds cpu-s one-line verdict

# run NAME EXPECTED_CODES CHECK -- ARGS...: runs `java -jar domino.jar ARGS` under the time limit.
# EXPECTED_CODES: e.g. "2" or "0|2"; CHECK: a shell command run after exit 0 (empty = none) that
# must succeed (it sees the case's stdout in $W/out.txt).
run() {
    local name=$1 expect=$2 check=$3
    shift 4
    [[ $name =~ $ONLY ]] || return 0
    local t0 t1 code secs lines oneline verdict
    t0=$(date +%s.%N)
    /usr/bin/time -f '%U %S' -o cpu.txt timeout -k 5 "$LIMIT" $JAVA -Xmx${XMX:-4g} -jar "$JAR" "$@" > out.txt 2> err.txt < /dev/null
    code=$?
    t1=$(date +%s.%N)
    secs=$(awk "BEGIN{printf \"%.1f\", $t1 - $t0}")
    cpu=$(awk '/^[0-9.]+ [0-9.]+$/{printf "%.1f", $1 + $2}' cpu.txt)
    verdict_of "$code" "$expect" "$check"
    report "$name" "$expect" "$code" "$secs"
}

# verdict_of CODE EXPECT CHECK: sets $oneline and $verdict from err.txt and out.txt.
verdict_of() {
    local code=$1 expect=$2 check=$3
    lines=$(grep -c '' err.txt)
    if [ "$code" = 0 ]; then
        oneline=$([ "$lines" = 0 ] && echo yes || echo "no($lines)")
    elif [ "$lines" = 1 ] && grep -q '^error: ' err.txt && ! grep -q $'\tat \|Exception in thread\|Error:' err.txt; then
        oneline=yes
    else
        oneline="no($lines)"
    fi
    if [ "$code" = 124 ] || [ "$code" = 137 ]; then verdict="FAIL (over ${LIMIT} s)"
    elif ! [[ "|$expect|" == *"|$code|"* ]]; then verdict="FAIL (exit $code)"
    elif [ "$oneline" != yes ]; then verdict="FAIL (stderr)"
    elif [ "$code" = 0 ] && [ -n "$check" ] && ! (eval "$check") > /dev/null 2>&1; then verdict="FAIL (wrong result: $check)"
    else verdict=ok
    fi
}

report() {
    local name=$1 expect=$2 code=$3 secs=$4
    printf '%-34s %-6s %-4s %7s %7s %-8s %s\n' "$name" "$expect" "$code" "$secs" "${cpu:--}" "$oneline" "$verdict"
    local msg
    msg=$(head -c 300 err.txt | head -1)
    [ -n "$msg" ] && printf '    %s\n' "$msg"
    [ "$verdict" = ok ] || FAILED=1
    ROWS+=("$name	$expect	$code	$secs	${cpu:--}	$oneline	$verdict	$msg")
    cpu=
}

b64() { printf '%s' "$1" | base64 -w0; }
schema() { printf '%s' "$2" > "$1.json"; }
compile() { local f=$1; shift; echo compile "$f" --vocab "$VOCAB" -o "$W/out.domino" "$@"; }
# mask_ok PREFIX PATTERN: the artifact just compiled, after PREFIX, prints PATTERN (for checks)
mask_has() { $JAVA -jar "$JAR" mask "$W/out.domino" --vocab "$VOCAB" --prefix "$1" --json | grep -q -- "$2"; }

# ------------------------------------------------------------ JSON Schema numbers (silent wrong results before)
schema maxlen_2p32 '{"type":"string","maxLength":4294967296}'
schema maxlen_2p32p3 '{"type":"string","maxLength":4294967299}'
schema maxitems_2p32p2 '{"type":"array","maxItems":4294967298}'
schema minitems_2p32p1 '{"type":"array","minItems":4294967297}'
schema maxprops_2p32 '{"type":"object","maxProperties":4294967296}'
schema maxlen_abc '{"type":"string","maxLength":"abc"}'
schema maxlen_1_5 '{"type":"string","maxLength":1.5}'
schema maxlen_2p31 '{"type":"string","maxLength":2147483648}'
schema maxlen_neg '{"type":"string","maxLength":-1}'
schema minprops_1e40 '{"type":"object","minProperties":1e40}'
for s in maxlen_2p32 maxlen_2p32p3 maxitems_2p32p2 minitems_2p32p1 maxprops_2p32 maxlen_2p31; do
    # exact (an output of any practical length) or a clear limit error; never truncated to 32 bits
    run "schema $s" "0|2" 'mask_has "\"abcd" "\"viable\":true" || mask_has "[1,2,3" "\"viable\":true" || mask_has "{\"a\":1,\"b\":2" "\"viable\":true"' -- $(compile $s.json)
done
for s in maxlen_abc maxlen_1_5 maxlen_neg minprops_1e40; do run "schema $s" 2 "" -- $(compile $s.json); done
printf '{"type":"object","properties":{"\\ud800x":{"type":"integer"}},"required":["\\ud800x"]}' > lone_key.json
run "schema lone-surrogate key" 2 "" -- $(compile lone_key.json)

# ------------------------------------------------------------ vocabularies
tok() { printf '{"model":{"type":"BPE","vocab":%s,"merges":[]},"added_tokens":%s,"pre_tokenizer":{"type":"ByteLevel"}}' "$1" "$2"; }
printf 'root ::= "ab"\n' > ab.gbnf
tok '{"a":0,"b":0}' '[]' > dup.json
tok '{"a":0,"b":1}' '[{"id":1,"content":"zz"}]' > clash.json
tok '{}' '[]' > emptyv.json
tok '{"a":0,"b":2000000000}' '[]' > bigid.json
tok '{"a":0,"b":-5}' '[]' > negid.json
: > empty.tiktoken
printf '%s 0\n%s 2000000000\n' "$(b64 a)" "$(b64 b)" > bigrank.tiktoken
printf '%s 0\n%s -5\n' "$(b64 a)" "$(b64 b)" > negrank.tiktoken
for v in dup.json clash.json emptyv.json bigid.json negid.json empty.tiktoken bigrank.tiktoken negrank.tiktoken; do
    run "vocab $v" 2 "" -- compile ab.gbnf --vocab "$v" -o out.domino
done
run "vocab --eos -5" 2 "" -- compile ab.gbnf --vocab "$VOCAB" --eos -5 -o out.domino
run "vocab /proc/self/status" 2 "" -- compile ab.gbnf --vocab /proc/self/status -o out.domino

# ------------------------------------------------------------ bounds (OOM before)
schema minlen_1e9 '{"type":"string","minLength":1000000000}'
schema minlen5_maxlen_1e9 '{"type":"string","minLength":5,"maxLength":1000000000}'
schema maxlen_1e9 '{"type":"string","maxLength":1000000000}'
schema maxlen_1e6 '{"type":"string","maxLength":1000000}'
for s in minlen_1e9 minlen5_maxlen_1e9 maxlen_1e9 maxlen_1e6; do
    run "schema $s" "0|2" 'mask_has "\"abcd" "\"viable\":true"' -- $(compile $s.json)
done
printf 'root ::= "x"{0,999999999}\n' > rep9.gbnf
printf 'root ::= "x"{0,99999999}\n' > rep8.gbnf
printf 'root ::= "x"{0,3000}\n' > rep3000.gbnf
run 'gbnf "x"{0,999999999}' "0|2" 'mask_has xxxx "\"viable\":true"' -- $(compile rep9.gbnf)
run 'gbnf "x"{0,99999999}' "0|2" 'mask_has xxxx "\"viable\":true"' -- $(compile rep8.gbnf)
run 'gbnf "x"{0,3000} exact at bound' 0 \
    'mask_has "$(printf "x%.0s" $(seq 3000))" "\"eos_allowed\":true,\"sample\":\[\"<|endoftext|>\"\]\|\"allowed\":1,"' -- $(compile rep3000.gbnf)
awk 'BEGIN{printf "root ::= \""; for(i=0;i<5000000;i++) printf "a"; printf "\"\n"}' > lit5m.gbnf
run "gbnf 5 MB string literal" 2 "" -- $(compile lit5m.gbnf)

# ------------------------------------------------------------ nesting and recursion (StackOverflowError before)
awk 'BEGIN{printf "root ::= "; for(i=0;i<10000;i++) printf "("; printf "\"a\""; for(i=0;i<10000;i++) printf ")"; print ""}' > deep.gbnf
awk 'BEGIN{printf "start: "; for(i=0;i<10000;i++) printf "("; printf "\"a\""; for(i=0;i<10000;i++) printf ")"; print ""}' > deep.lark
awk 'BEGIN{for(i=0;i<10000;i++) printf "("; printf "a"; for(i=0;i<10000;i++) printf ")"}' > deep.regex
for f in deep.gbnf deep.lark deep.regex; do run "10,000 nested parens $f" 2 "" -- $(compile $f); done
awk 'BEGIN{print "root ::= r0"; for(i=0;i<3000;i++) printf "r%d ::= \"a\" r%d\n", i, i+1; print "r3000 ::= \"b\""}' > chain.gbnf
run "chain of 3,000 rule references" 0 'mask_has "$(printf "a%.0s" $(seq 3000))" "\"viable\":true"' -- $(compile chain.gbnf)

# ------------------------------------------------------------ scale
awk 'BEGIN{printf "{\"enum\":["; for(i=0;i<10000;i++) printf "%s\"v%d\"", (i?",":""), i*7919; print "]}"}' > enum10k.json
run "10,000-value enum" 0 'mask_has "\"v79190\"" "\"eos_allowed\":true" && mask_has "\"v7918" "\"viable\":true"' -- $(compile enum10k.json)
awk 'BEGIN{srand(1); printf "root ::= "; for(i=0;i<120000;i++){w=""; n=20+int(rand()*20); for(j=0;j<n;j++) w=w sprintf("%c",97+int(rand()*26)); printf "%s\"%s%d\"", (i?" | ":""), w, i}; print ""}' > alt120k.gbnf
run "5 MB GBNF, 120,000 alternatives" "0|2" "" -- $(compile alt120k.gbnf --limit source-bytes=8000000)
printf 'root ::= root root | "a"\n' > amb.gbnf
run 'compile s ::= s s | "a"' 0 "" -- $(compile amb.gbnf)
cp out.domino amb.domino 2>/dev/null
A2000=$(printf 'a%.0s' $(seq 2000))
run 's ::= s s | "a", 2,000 bytes' "0|2" "grep -q 'every token accepted' out.txt" -- mask amb.domino --vocab "$VOCAB" --prefix "$A2000"

# ------------------------------------------------------------ artifacts
cat > Alter.java <<'EOF'
import dev.domino.runtime.Artifact;
import dev.domino.runtime.internal.*;
import java.nio.file.*;
/** A lazy artifact whose first follow set names a terminal that does not exist; the checksum is recomputed. */
public class Alter {
    public static void main(String[] a) throws Exception {
        Artifact art = ArtifactFormat.read(Path.of(a[0]));
        var in = RuntimeAccess.of(art);
        in.follow()[0].set(in.terminalCount() + 7);
        Files.write(Path.of(a[1]), ArtifactFormat.toBytes(art));
    }
}
EOF
printf 'root ::= "{" ("\\"k\\"" ":" [0-9]+)? "}"\n' > small.gbnf
run "compile --lazy" 0 "" -- $(compile small.gbnf --lazy)
if [ ! -f out.domino ]; then
    : # the lazy compile was filtered out: the artifact cases need its output
elif $JAVA -cp "$JAR" Alter.java out.domino altered.domino 2> alter.err; then
    run "lazy artifact, altered follow set" 3 "" -- mask altered.domino --vocab "$VOCAB" --prefix '{"k'
else
    echo "(could not build the altered artifact: $(head -1 alter.err))"
fi
[ -f out.domino ] && head -c 100000 out.domino > truncated.domino
run "truncated artifact" 3 "" -- mask truncated.domino --vocab "$VOCAB"
run "artifact /proc/self/status" 3 "" -- mask /proc/self/status --vocab "$VOCAB"
run "mask --tokens -5" 2 "" -- mask out.domino --vocab "$VOCAB" --tokens -5
run "mask --tokens 2000000000" 2 "" -- mask out.domino --vocab "$VOCAB" --tokens 2000000000

# ------------------------------------------------------------ files
printf '%s 0\n%s 1\n%s 2\n' "$(b64 a)" "$(b64 b)" "$(b64 '"')" > tiny.tiktoken
mkfifo fifo.domino
run "-o FIFO" 2 "" -- compile ab.gbnf --vocab tiny.tiktoken -o fifo.domino
[ -p fifo.domino ] || { echo "    FIFO replaced"; FAILED=1; }
echo keep > real.domino; ln -s real.domino link.domino
run "-o symlink" 2 "" -- compile ab.gbnf --vocab tiny.tiktoken -o link.domino
[ -L link.domino ] && [ "$(cat real.domino)" = keep ] || { echo "    symlink or its target changed"; FAILED=1; }
cp ab.gbnf self.gbnf
run "-o the input file" 2 "" -- compile self.gbnf --vocab tiny.tiktoken -o self.gbnf
cmp -s ab.gbnf self.gbnf || { echo "    input overwritten"; FAILED=1; }
[ -e /dev/full ] && run "-o /dev/full" 2 "[ -c /dev/full ]" -- compile ab.gbnf --vocab tiny.tiktoken -o /dev/full
[ -c /dev/full ] || { echo "    /dev/full replaced"; FAILED=1; }
run "-o into /proc (early failure)" 2 "" -- compile enum10k.json --vocab "$VOCAB" -o /proc/x.domino
(umask 022; run "umask 022 -> mode 644" 0 '[ "$(stat -c %a umask.domino)" = 644 ]' -- compile ab.gbnf --vocab tiny.tiktoken -o umask.domino
 printf '%s\n' "${ROWS[-1]}" > row.txt)
[ -f row.txt ] && ROWS+=("$(cat row.txt)") && grep -q '	ok	' row.txt || FAILED=1
rm -f row.txt umask.domino
(umask 077; run "umask 077 -> mode 600" 0 '[ "$(stat -c %a umask.domino)" = 600 ]' -- compile ab.gbnf --vocab tiny.tiktoken -o umask.domino
 printf '%s\n' "${ROWS[-1]}" > row.txt)
[ -f row.txt ] && ROWS+=("$(cat row.txt)") && grep -q '	ok	' row.txt || FAILED=1
# a compile killed half way leaves no temporary file (SIGTERM and SIGINT run the shutdown hook)
if [[ "killed compile" =~ $ONLY ]]; then
    mkdir -p kill
    t0=$(date +%s.%N)
    $JAVA -jar "$JAR" compile enum10k.json --vocab "$VOCAB" -o kill/k.domino > out.txt 2> err.txt &
    pid=$!
    for _ in $(seq 100); do ls -A kill | grep -q "\.tmp$" && break; sleep 0.1; done  # the temporary file exists: the compile runs
    sleep 1
    kill -TERM $pid; wait $pid; code=$?
    t1=$(date +%s.%N)
    left=$(ls -A kill)
    oneline=yes; verdict=ok
    [ -n "$left" ] && verdict="FAIL (left: $left)"
    : > err.txt
    report "killed compile (SIGTERM)" 143 "$code" "$(awk "BEGIN{printf \"%.1f\", $t1 - $t0}")"
fi
printf 'root ::= "a"\n| "\xc3\xa9\xff"\n' > badutf8.gbnf
run "invalid UTF-8 in a grammar" 2 "" -- compile badutf8.gbnf --vocab tiny.tiktoken -o out.domino
grep -q 'line 2, column' err.txt || { [[ "invalid UTF-8" =~ $ONLY ]] && echo "    no line/column" && FAILED=1; }
printf '{"type":"string",\n "enum":["\xff"]}' > badutf8.json
run "invalid UTF-8 in a schema" 2 "" -- compile badutf8.json --vocab tiny.tiktoken -o out.domino
run "grammar /proc/self/status" 2 "" -- compile /proc/self/status --format gbnf --vocab tiny.tiktoken -o out.domino
run "missing grammar file" 2 "" -- compile no-such.gbnf --vocab tiny.tiktoken -o out.domino

if [ -n "$OUT" ]; then
    { printf 'case\texpect\texit\tseconds\tcpu_seconds\tone_line\tverdict\tstderr\n'; printf '%s\n' "${ROWS[@]}"; } > "$OUT"
fi
[ "$FAILED" = 0 ] && echo "all cases kept their promise" || echo "SOME CASES FAILED"
exit $FAILED
