package dev.domino.compiler;

import dev.domino.compiler.jsonschema.JsonSchemaGrammar;
import dev.domino.compiler.jsonschema.JsonSchemaOptions;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Adapter from the CLI-level front-end options to the JSON Schema front-end. */
final class JsonSchemaSource {
    private JsonSchemaSource() {}

    static GrammarSources.Parsed parse(String text, FrontEndOptions options) {
        JsonSchemaOptions o = switch (options.whitespace().toLowerCase(Locale.ROOT)) {
            case "flexible" -> JsonSchemaOptions.defaults();
            case "compact" -> JsonSchemaOptions.compact();
            case "fixed" -> JsonSchemaOptions.fixed(options.itemSeparator(), options.keySeparator());
            default -> throw new IllegalArgumentException("unknown JSON whitespace mode '" + options.whitespace()
                    + "': expected flexible, compact or fixed");
        };
        JsonSchemaOptions.PropertyOrder order = switch (options.propertyOrder().toLowerCase(Locale.ROOT)) {
            case "any" -> JsonSchemaOptions.PropertyOrder.ANY;
            case "schema" -> JsonSchemaOptions.PropertyOrder.SCHEMA;
            default -> throw new IllegalArgumentException("unknown JSON property order '" + options.propertyOrder()
                    + "': expected any or schema");
        };
        int maxWs;
        if (options.maxWhitespace().equalsIgnoreCase("unbounded")) maxWs = JsonSchemaOptions.UNBOUNDED_WHITESPACE;
        else {
            try {
                maxWs = Integer.parseInt(options.maxWhitespace().trim());
            } catch (NumberFormatException e) {
                maxWs = -2;
            }
            if (maxWs < 0) throw new IllegalArgumentException("invalid JSON whitespace limit '" + options.maxWhitespace()
                    + "': expected a number from 0 to " + Integer.MAX_VALUE + " or unbounded");
        }
        JsonSchemaOptions.KeyEscapes keys = switch (options.keyEscapes().toLowerCase(Locale.ROOT)) {
            case "plain" -> JsonSchemaOptions.KeyEscapes.PLAIN;
            case "any" -> JsonSchemaOptions.KeyEscapes.ANY;
            default -> throw new IllegalArgumentException("unknown JSON key escapes '" + options.keyEscapes()
                    + "': expected plain or any");
        };
        JsonSchemaOptions.UnknownFormats formats = switch (options.unknownFormats().toLowerCase(Locale.ROOT)) {
            case "error" -> JsonSchemaOptions.UnknownFormats.ERROR;
            case "ignore" -> JsonSchemaOptions.UnknownFormats.IGNORE;
            default -> throw new IllegalArgumentException("unknown value '" + options.unknownFormats()
                    + "' for unknown formats: expected error or ignore");
        };
        o = o.withIgnoredKeywords(new HashSet<>(options.ignoredKeywords())).withPropertyOrder(order)
                .withMaxWhitespace(maxWs).withKeyEscapes(keys).withUnknownFormats(formats);
        JsonSchemaGrammar g = JsonSchemaGrammar.from(text, o);
        Map<String, String> recorded = new LinkedHashMap<>();
        recorded.put("json.whitespace", options.whitespace());
        if (options.whitespace().equalsIgnoreCase("fixed")) {
            recorded.put("json.item_separator", options.itemSeparator());
            recorded.put("json.key_separator", options.keySeparator());
        }
        recorded.put("json.property_order", order.name().toLowerCase(Locale.ROOT));
        if (options.whitespace().equalsIgnoreCase("flexible")) {
            recorded.put("json.max_whitespace", maxWs == JsonSchemaOptions.UNBOUNDED_WHITESPACE ? "unbounded" : Integer.toString(maxWs));
        }
        recorded.put("json.key_escapes", keys.name().toLowerCase(Locale.ROOT));
        recorded.put("json.unknown_formats", formats.name().toLowerCase(Locale.ROOT));
        List<String> ignored = g.ignoredKeywords().stream().map(Object::toString).toList();
        return new GrammarSources.Parsed(g.grammar(), recorded, ignored, true);
    }
}
