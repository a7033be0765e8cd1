package dev.domino.compiler.jsonschema;

import dev.domino.compiler.jsonschema.arrays.ArraySchemas;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.domino.compiler.jsonschema.JsonSchemaComplementTest.check;

/**
 * {@code contains} next to {@code maxItems}, {@code prefixItems} and {@code minContains} ({@link ArraySchemas}):
 * also the shape the complement of {@code items} takes ("some element violates items") under a length bound.
 */
class JsonSchemaContainsTest {
    @Test void containsWithMaxItems() {
        check("{'type':'array','contains':{'type':'integer'},'maxItems':3}",
            List.of("['a',1]", "[1,'a','b']", "[1]", "[1,2,3]"),
            List.of("['a','b','c',1]", "['a']", "[]", "[1,2,3,4]"));
    }

    @Test void containsWithPrefixItems() {
        check("{'type':'array','prefixItems':[{'type':'string'}],'items':{'type':'number'},'contains':{'type':'string'}}",
            List.of("['a',1]", "['a']", "['a',1,2.5]"),
            List.of("[1]", "[1,'a']", "['a','b']", "[]"));
        check("{'type':'array','prefixItems':[{'type':'string'},{'type':'integer'}],'contains':{'type':'integer'},'minItems':3}",
            List.of("['a',1,null]", "['a',1,2]", "['a',1,'c','d']"),
            List.of("['a',1]", "['a','b',2]", "[1,1,1]"));
    }

    @Test void minContainsCountsMatches() {
        check("{'type':'array','contains':{'const':1},'minContains':2,'maxItems':4}",
            List.of("[1,1]", "[1,2,1]", "[2,1,2,1]"),
            List.of("[1,2]", "[1]", "[1,1,1,1,1]", "[]"));
    }

    @Test void complementOfItemsUnderALengthBound() {
        check("{'type':'array','maxItems':2,'not':{'items':{'type':'integer'}}}",
            List.of("[1,'a']", "['a']", "[null,2]"),
            List.of("[1,2]", "[]", "[1]", "[1,2,'a']"));
    }

    /** maxContains counts exactly: every element either matches contains (counted) or does not (contains' complement). */
    @Test void maxContainsCountsExactly() {
        check("{'type':'array','contains':{'type':'string'},'minContains':0,'maxContains':1}",
            List.of("[]", "[1,2]", "['a']", "[1,'a',2]"),
            List.of("['a','b']", "['a',1,'b']", "{}"));
        check("{'type':'array','items':{'type':'integer'},'contains':{'minimum':5},'minContains':2,'maxContains':3}",
            List.of("[5,6]", "[1,5,2,7,9]", "[9,9,9]"),
            List.of("[5]", "[5,6,7,8]", "[1,2]", "[5,6,'a']"));
        check("{'type':'array','prefixItems':[{'const':1}],'contains':{'const':1},'maxContains':1}",
            List.of("[1]", "[1,2,3]"),
            List.of("[1,1]", "[2]", "[]"));
    }

    /** maxContains not below maxItems: no array has more matches, so it constrains nothing. */
    @Test void maxContainsAtLeastMaxItemsIsMinContains() {
        check("{'type':'array','contains':{'const':1},'maxContains':3,'maxItems':3}",
            List.of("[1]", "[1,1,1]", "[2,1]"),
            List.of("[]", "[2]", "[1,1,1,1]"));
    }

    /** Several contains with maxItems/minItems: states count elements and which contains schemas matched so far. */
    @Test void severalContainsWithLengthBounds() {
        check("{'type':'array','allOf':[{'contains':{'type':'string'}},{'contains':{'type':'integer'}}],'maxItems':2}",
            List.of("['a',1]", "[1,'a']"),
            List.of("['a']", "[1]", "['a',1,null]", "[null,'a']", "[]"));
        check("{'type':'array','items':{'type':'number'},'allOf':[{'contains':{'minimum':5}},{'contains':{'maximum':0}}],'minItems':3}",
            List.of("[5,0,1]", "[1,2,6,-1]", "[0,5,9]"),
            List.of("[5,0]", "[5,1,2]", "[0,0,0]", "[5,0,'a']"));
        // one element may match both: [7] has a 7 that is >= 5 and odd
        check("{'type':'array','allOf':[{'contains':{'minimum':5}},{'contains':{'multipleOf':7}}],'maxItems':1}",
            List.of("[7]", "[14]"),
            List.of("[5]", "[0]", "[]", "[7,7]"));
        // the complement of items, twice, under maxItems (an element violating each)
        check("{'type':'array','maxItems':2,'allOf':[{'not':{'items':{'type':'integer'}}},{'not':{'items':{'minimum':0}}}]}",
            List.of("[-0.5]", "[1.5,-1]", "['a',-1]"),
            List.of("['a']", "[1,'a']", "[1,2]", "[1.5]", "[-1]", "[]", "['a',-1,-2]"));
    }
}
