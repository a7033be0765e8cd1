package dev.domino.compiler.jsonschema;

import com.fasterxml.jackson.databind.JsonNode;
import dev.domino.compiler.ir.GrammarException;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Resolves {@code $ref}s: a JSON pointer into the schema document ({@code #}, {@code #/$defs/x},
 * percent-decoded, {@code ~0}/{@code ~1} unescaped by Jackson's pointer). Remote references and anchors
 * are unsupported keywords.
 */
final class RefResolver {
    private final SchemaCompiler sc;

    RefResolver(SchemaCompiler sc) { this.sc = sc; }

    JsonNode resolve(String ref, String ptr) {
        if (!ref.startsWith("#")) { sc.unsupported(ptr, "$ref", "remote reference '" + ref + "'"); return null; }
        String pointer = URLDecoder.decode(ref.substring(1).replace("+", "%2B"), StandardCharsets.UTF_8);
        if (!pointer.isEmpty() && !pointer.startsWith("/")) { sc.unsupported(ptr, "$ref", "anchor reference '" + ref + "'"); return null; }
        JsonNode target = sc.root.at(pointer);
        if (target.isMissingNode()) throw new GrammarException("unresolvable $ref '" + ref + "' at " + SchemaCompiler.showPointer(ptr));
        return target;
    }
}
