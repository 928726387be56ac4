package org.mrconf.report;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A numeric check read back from a case's expected and actual text, for formats that carry measurements (OCPTV):
 * "expected 1, actual 2" is a measurement 2 with an EQUAL 1 validator; "{@code <= 50 percent}" or "at most 50
 * percent" against "75 percent" is 75 with LESS_THAN_OR_EQUAL 50 and unit "percent". Text that is not one number
 * (optionally with a comparison word before it and one unit word after it) is no numeric check, and gives none.
 *
 * @param value     the measured (actual) value
 * @param unit      its unit, empty when none was written
 * @param validator the OCPTV validator type: EQUAL, LESS_THAN, ...
 * @param limit     the value the validator compares with
 */
record NumericCheck(BigDecimal value, String unit, String validator, BigDecimal limit) {
    private static final String NUMBER = "([-+]?(?:0[xX][0-9a-fA-F]+|[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?))";
    private static final String UNIT = "(?:\\s*([A-Za-z%\u00b5][A-Za-z%\u00b5/]*))?";
    private static final Pattern EXPECTED = Pattern.compile("^\\s*(<=|>=|==|!=|=|<|>|\u2264|\u2265|at most|at least|"
            + "less than|more than|greater than|not)?\\s*" + NUMBER + UNIT + "\\s*$");
    private static final Pattern ACTUAL = Pattern.compile("^\\s*" + NUMBER + UNIT + "\\s*$");

    /** The check, when both texts are numbers in the shapes above and their units agree. */
    static Optional<NumericCheck> of(final String expected, final String actual) {
        final Matcher e = EXPECTED.matcher(expected);
        final Matcher a = ACTUAL.matcher(actual);
        if (!e.matches() || !a.matches()) {
            return Optional.empty();
        }
        final String expectedUnit = e.group(3) == null ? "" : e.group(3);
        final String actualUnit = a.group(2) == null ? "" : a.group(2);
        if (!expectedUnit.isEmpty() && !actualUnit.isEmpty() && !expectedUnit.equals(actualUnit)) {
            return Optional.empty();
        }
        final String op = e.group(1) == null ? "" : e.group(1).toLowerCase(Locale.ROOT);
        final String validator = switch (op) {
            case "", "=", "==" -> "EQUAL";
            case "!=", "not" -> "NOT_EQUAL";
            case "<", "less than" -> "LESS_THAN";
            case "<=", "\u2264", "at most" -> "LESS_THAN_OR_EQUAL";
            case ">", "more than", "greater than" -> "GREATER_THAN";
            case ">=", "\u2265", "at least" -> "GREATER_THAN_OR_EQUAL";
            default -> throw new AssertionError(op);
        };
        return Optional.of(new NumericCheck(
                number(a.group(1)), actualUnit.isEmpty() ? expectedUnit : actualUnit, validator, number(e.group(2))));
    }

    /** A number as AssertJ and JUnit print it: {@code 12146446L}, {@code 2.5}, {@code <7>}. */
    private static final String PRINTED = "<?([-+]?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)[LlDdFf]?>?";

    private static final Pattern COMPARED = Pattern.compile("Expecting actual:\\s*" + PRINTED
            + "\\s*to be (greater than or equal to|greater than|less than or equal to|less than):\\s*" + PRINTED);
    private static final Pattern BETWEEN = Pattern.compile("Expecting actual:\\s*" + PRINTED
            + "\\s*to be (between|strictly between):\\s*\\[" + PRINTED + ",\\s*" + PRINTED + "\\]");
    private static final Pattern EQUAL =
            Pattern.compile("(?:expected|Expected size):\\s*" + PRINTED + "\\s*but was:\\s*" + PRINTED + "(?:\\s|$)");
    /** The description AssertJ puts first, {@code [6.6.3: interval before resend 3: ...]}. */
    private static final Pattern DESCRIPTION = Pattern.compile("^\\[([^\\]\\n]*)\\]");

    /**
     * The numeric checks a case's message states, for a case whose evidence has no expected and actual text: AssertJ's
     * "Expecting actual: 12146446L to be greater than or equal to: 236000000L" (one check), "... to be between:
     * [20000000L, 100000000L]" (two: at least the first, at most the second), "expected: 1 but was: 2" and "Expected
     * size: 4 but was: 1" (EQUAL). The values carry no unit: AssertJ prints bare numbers. Anything else gives none.
     */
    static List<NumericCheck> fromMessage(final String message) {
        final Matcher compared = COMPARED.matcher(message);
        if (compared.find()) {
            final String validator = switch (compared.group(2)) {
                case "greater than or equal to" -> "GREATER_THAN_OR_EQUAL";
                case "greater than" -> "GREATER_THAN";
                case "less than or equal to" -> "LESS_THAN_OR_EQUAL";
                default -> "LESS_THAN";
            };
            return List.of(new NumericCheck(
                    new BigDecimal(compared.group(1)), "", validator, new BigDecimal(compared.group(3))));
        }
        final Matcher between = BETWEEN.matcher(message);
        if (between.find()) {
            final boolean strict = between.group(2).startsWith("strictly");
            final BigDecimal value = new BigDecimal(between.group(1));
            return List.of(
                    new NumericCheck(
                            value,
                            "",
                            strict ? "GREATER_THAN" : "GREATER_THAN_OR_EQUAL",
                            new BigDecimal(between.group(3))),
                    new NumericCheck(
                            value, "", strict ? "LESS_THAN" : "LESS_THAN_OR_EQUAL", new BigDecimal(between.group(4))));
        }
        final Matcher equal = EQUAL.matcher(message);
        if (equal.find()) {
            return List.of(
                    new NumericCheck(new BigDecimal(equal.group(2)), "", "EQUAL", new BigDecimal(equal.group(1))));
        }
        return List.of();
    }

    /** What the check is about, from the description AssertJ puts first; empty when there is none. */
    static String description(final String message) {
        final Matcher m = DESCRIPTION.matcher(message);
        return m.find() ? m.group(1).strip() : "";
    }

    private static BigDecimal number(final String text) {
        final String t = text.startsWith("+") ? text.substring(1) : text;
        final boolean negative = t.startsWith("-");
        final String digits = negative ? t.substring(1) : t;
        if (digits.startsWith("0x") || digits.startsWith("0X")) {
            final BigDecimal v = new BigDecimal(new java.math.BigInteger(digits.substring(2), 16));
            return negative ? v.negate() : v;
        }
        return new BigDecimal(t);
    }
}
