import { describe, expect, it } from "vitest";
import { formatDate, formatNumber, generalNumber, isDateFormat } from "../../../../src/engine/formats/office/number-format.js";

describe("formatNumber", () => {
  it.each([
    [1234.5, "#,##0.00", "1,234.50"],
    [0.256, "0.0%", "25.6%"],
    [-1234, '"$"#,##0;[Red]-"$"#,##0', "-$1,234"],
    [1234567, "#,##0,", "1,235"],
    [12, "000", "012"],
    [1500, "[$€-407]#,##0.00", "€1,500.00"],
    [12345.678, "0.00E+00", "1.23E+04"],
    [3, '0 "units"', "3 units"],
    [0, '0;-0;"zero"', "zero"],
    [-5, "0.0", "-5.0"],
    [45000, "yyyy-mm-dd", "2023-03-15"],
    [1 / 3, "General", "0.3333333333"],
  ])("%s with %s → %s", (v, code, want) => {
    expect(formatNumber(v, code)).toBe(want);
  });

  it("General keeps integers and trims to 10 significant digits", () => {
    expect(generalNumber(42)).toBe("42");
    expect(generalNumber(0.1 + 0.2)).toBe("0.3");
  });
});

describe("formatDate", () => {
  it("formats UTC dates with date codes, including literal CJK text", () => {
    const d = new Date(Date.UTC(2024, 2, 15, 13, 5));
    expect(formatDate(d, "d-mmm-yy")).toBe("15-Mar-24");
    expect(formatDate(d, 'yyyy"年"m"月"d"日" hh:mm')).toBe("2024年3月15日 13:05");
    expect(formatDate(d, "h:mm AM/PM")).toBe("1:05 PM");
    expect(formatDate(new Date(Date.UTC(2024, 0, 1)), undefined)).toBe("2024-01-01");
  });

  it("tells date codes from number codes", () => {
    expect(isDateFormat("mm:ss")).toBe(true);
    expect(isDateFormat("0.00")).toBe(false);
    expect(isDateFormat('"m"0')).toBe(false);
  });
});
