import { describe, expect, it } from "vitest";
import { checkCredentials } from "../../src/server/index.js";

const expected = { appId: "app-1", secretCode: "secret-1" };

describe("checkCredentials", () => {
  it("returns 200, 40101 or 40102", () => {
    expect(checkCredentials({ "x-ti-app-id": "app-1", "x-ti-secret-code": "secret-1" }, expected)).toBe(200);
    expect(checkCredentials({ "x-ti-app-id": "app-1" }, expected)).toBe(40101);
    expect(checkCredentials({ "x-ti-app-id": "", "x-ti-secret-code": "secret-1" }, expected)).toBe(40101);
    expect(checkCredentials({ "x-ti-app-id": "app-1", "x-ti-secret-code": "secret-2" }, expected)).toBe(40102);
    expect(checkCredentials({ "x-ti-app-id": "app-1", "x-ti-secret-code": "secret-1-longer" }, expected)).toBe(40102);
    expect(checkCredentials({ "x-ti-app-id": "app-2", "x-ti-secret-code": "secret-1" }, expected)).toBe(40102);
  });

  it("lets everything through when the service runs without credentials", () => {
    expect(checkCredentials({}, {})).toBe(200);
  });
});
