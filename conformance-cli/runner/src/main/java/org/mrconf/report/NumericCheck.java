package org.mrconf.report;

import java.math.BigDecimal;
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
