package dev.domino.compiler.jsonschema;

/** The JSON types a schema can admit; {@code NUMBER} includes the integers, {@code INTEGER} alone does not. */
public enum JsonType { NULL, BOOLEAN, OBJECT, ARRAY, STRING, INTEGER, NUMBER }
