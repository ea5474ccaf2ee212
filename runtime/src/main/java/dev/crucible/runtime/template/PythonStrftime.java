package dev.crucible.runtime.template;

import java.time.LocalDateTime;
import java.time.temporal.ChronoField;

/**
 * Python's {@code datetime.strftime} for a naive local time in the C locale, as glibc formats it: English names,
 * zero padding, glibc's {@code %-d} (no padding) and {@code %e}; {@code %z} and {@code %Z} are empty for a naive time;
 * an unknown directive is written as it stands. Stateless.
 */
final class PythonStrftime {

    private static final String[] DAYS = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
    private static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July", "August",
            "September", "October", "November", "December"};

    private PythonStrftime() {
    }

    static String format(LocalDateTime t, String format) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%' || i + 1 >= format.length()) {
                out.append(c);
                continue;
            }
            boolean unpadded = format.charAt(i + 1) == '-' && i + 2 < format.length();
            char directive = format.charAt(unpadded ? i + 2 : i + 1);
            String value = directive(t, directive);
            if (value == null) {
                out.append(format, i, unpadded ? i + 3 : i + 2);
            } else {
                out.append(unpadded ? unpad(value) : value);
            }
            i += unpadded ? 2 : 1;
        }
        return out.toString();
    }

    private static String directive(LocalDateTime t, char directive) {
        int hour12 = t.getHour() % 12 == 0 ? 12 : t.getHour() % 12;
        return switch (directive) {
            case 'a' -> DAYS[t.getDayOfWeek().ordinal()].substring(0, 3);
            case 'A' -> DAYS[t.getDayOfWeek().ordinal()];
            case 'b', 'h' -> MONTHS[t.getMonthValue() - 1].substring(0, 3);
            case 'B' -> MONTHS[t.getMonthValue() - 1];
            case 'c' -> format(t, "%a %b %e %H:%M:%S %Y");
            case 'd' -> pad(t.getDayOfMonth(), 2, '0');
            case 'e' -> pad(t.getDayOfMonth(), 2, ' ');
            case 'f' -> pad(t.getNano() / 1000, 6, '0');
            case 'H' -> pad(t.getHour(), 2, '0');
            case 'I' -> pad(hour12, 2, '0');
            case 'j' -> pad(t.getDayOfYear(), 3, '0');
            case 'm' -> pad(t.getMonthValue(), 2, '0');
            case 'M' -> pad(t.getMinute(), 2, '0');
            case 'p' -> t.getHour() < 12 ? "AM" : "PM";
            case 'S' -> pad(t.getSecond(), 2, '0');
            case 'u' -> String.valueOf(t.getDayOfWeek().getValue());
            case 'w' -> String.valueOf(t.getDayOfWeek().getValue() % 7);
            case 'U' -> pad((t.getDayOfYear() + 6 - t.getDayOfWeek().getValue() % 7) / 7, 2, '0');
            case 'W' -> pad((t.getDayOfYear() + 6 - (t.getDayOfWeek().getValue() + 6) % 7) / 7, 2, '0');
            case 'y' -> pad(t.getYear() % 100, 2, '0');
            case 'Y' -> String.valueOf(t.get(ChronoField.YEAR));
            case 'x', 'D' -> format(t, "%m/%d/%y");
            case 'X', 'T' -> format(t, "%H:%M:%S");
            case 'F' -> format(t, "%Y-%m-%d");
            case 'R' -> format(t, "%H:%M");
            case 'n' -> "\n";
            case 't' -> "\t";
            case 'z', 'Z' -> "";
            case '%' -> "%";
            default -> null;
        };
    }

    private static String pad(int value, int width, char with) {
        String digits = String.valueOf(value);
        return String.valueOf(with).repeat(Math.max(0, width - digits.length())) + digits;
    }

    private static String unpad(String value) {
        int i = 0;
        while (i < value.length() - 1 && (value.charAt(i) == '0' || value.charAt(i) == ' ')) {
            i++;
        }
        return value.substring(i);
    }
}
