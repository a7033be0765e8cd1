package dev.domino.compiler.frontend;

import dev.domino.compiler.ir.Expr;

import java.util.ArrayList;
import java.util.List;

/**
 * The token-reference syntax shared by the GBNF and Lark front-ends: {@code <|eot_id|>} or
 * {@code <think>} (a token by its exact text, brackets included, as llama.cpp and llguidance
 * write it), {@code <[128009]>} (by id), {@code <[128000-128255,7]>} (inclusive id ranges, as
 * llguidance writes them), each optionally negated with a leading {@code !} (any single token
 * but those, as llama.cpp writes it).
 */
final class TokenRefSyntax {
    private TokenRefSyntax() {}

    /** Longest token text accepted between the brackets (keeps a stray '<' from eating a file). */
    static final int MAX_TEXT = 256;

    /** Whether a token reference starts at the cursor. */
    static boolean startsAt(GrammarText in) {
        int c = in.peek();
        return c == '<' || (c == '!' && in.peek(1) == '<');
    }

    /** Reads one reference; the cursor is on its '!' or '<'. */
    static Expr.TokenRef read(GrammarText in) {
        int at = in.pos;
        boolean negated = false;
        if (in.peek() == '!') { in.next(); negated = true; }
        int open = in.pos;
        in.next(); // '<'
        if (in.peek() == '[') {
            in.next();
            if (in.peek() == '*') {
                // llguidance's <[*]>: any one token
                in.next();
                if (in.peek() != ']' || in.peek(1) != '>') {
                    throw in.error("expected ']>' to close the token reference but found " + GrammarText.describe(in.peek()), in.pos);
                }
                in.next();
                in.next();
                if (negated) throw in.error("!<[*]> names no token", at);
                return new Expr.TokenRef(List.of(), List.of(), true, in.line(at), in.column(at));
            }
            if (in.peek() == '^') {
                // llguidance's <[^1-3]>: any token but those
                in.next();
                negated = !negated;
            }
            List<int[]> ranges = new ArrayList<>();
            while (true) {
                long lo = number(in);
                long hi = lo;
                if (in.peek() == '-') { in.next(); hi = number(in); }
                if (hi < lo) throw in.error("token id range " + lo + "-" + hi + " ends before it starts", at);
                ranges.add(new int[] {(int) lo, (int) hi});
                if (in.peek() == ',') { in.next(); continue; }
                break;
            }
            if (in.peek() != ']' || in.peek(1) != '>') {
                throw in.error("expected ']>' to close the token reference but found " + GrammarText.describe(in.peek()), in.pos);
            }
            in.next();
            in.next();
            return new Expr.TokenRef((String) null, ranges, negated, in.line(at), in.column(at));
        }
        while (true) {
            int c = in.peek();
            if (c == '>') { in.next(); break; }
            if (c == GrammarText.EOF || c == '\n' || c == ' ' || c == '\t' || c == '\r' || in.pos - open > MAX_TEXT) {
                throw in.error("unclosed token reference: expected '>' (write a token as <|eot_id|>, <think> or <[128009]>)", at);
            }
            in.next();
        }
        String text = in.substring(open, in.pos);
        if (text.length() <= 2) throw in.error("empty token reference <>", at);
        return new Expr.TokenRef(text, null, negated, in.line(at), in.column(at));
    }

    private static long number(GrammarText in) {
        int start = in.pos;
        long v = 0;
        while (in.peek() >= '0' && in.peek() <= '9') {
            v = v * 10 + (in.next() - '0');
            if (v > Integer.MAX_VALUE) throw in.error("token id too large", start);
        }
        if (in.pos == start) throw in.error("expected a token id but found " + GrammarText.describe(in.peek()), in.pos);
        return v;
    }
}
