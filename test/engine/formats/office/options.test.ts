import { describe, expect, it } from "vitest";
import { OFFICE_OPTION_DEFAULTS, officeOptions } from "../../../../src/engine/formats/office/options.js";
import { DocParseError } from "../../../../src/errors.js";
import { formatContext } from "../../../support/office-fixtures.js";

describe("officeOptions", () => {
  it("pins the documented defaults", () => {
    expect(OFFICE_OPTION_DEFAULTS).toEqual({
      include_hidden: false,
      include_speaker_notes: false,
      max_sheet_rows: Number.POSITIVE_INFINITY,
      max_sheet_cols: Number.POSITIVE_INFINITY,
      office_geometry: "estimated",
    });
    expect(officeOptions(formatContext())).toEqual(OFFICE_OPTION_DEFAULTS);
  });

  it("reads engine_params and refuses wrong types with 40004", () => {
    expect(officeOptions(formatContext({ engineParams: { include_hidden: true, max_sheet_rows: 2000, max_sheet_cols: 100 } }))).toMatchObject({
      include_hidden: true,
      max_sheet_rows: 2000,
      max_sheet_cols: 100,
    });
    for (const bad of [{ include_hidden: "yes" }, { max_sheet_rows: 0 }, { max_sheet_cols: 1.5 }, { office_geometry: "pdf" }]) {
      let err: unknown;
      try {
        officeOptions(formatContext({ engineParams: bad }));
      } catch (e) {
        err = e;
      }
      expect(DocParseError.isInstance(err) && err.code).toBe(40004);
    }
  });
});
