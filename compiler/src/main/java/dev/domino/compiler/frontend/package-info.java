/**
 * Front ends: GBNF, Lark and regular-expression text parsed into the grammar IR ({@code dev.domino.compiler.ir}),
 * with one-line errors at line and column. Data flows from source text to IR only; JSON Schema and request
 * front ends live in {@code jsonschema}, {@code request} and {@code structural}.
 */
package dev.domino.compiler.frontend;
