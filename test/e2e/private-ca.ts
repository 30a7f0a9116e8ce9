/** A private CA and a certificate for 127.0.0.1 it signed, for tests of a service on TLS. */
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Made with the openssl command in `dir`: the CA's certificate file, and the server's key and certificate. */
export async function privateCa(dir: string): Promise<{ ca: string; key: Buffer; cert: Buffer }> {
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
  openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", at("ca.key"), "-out", at("ca.pem"), "-days", "2", "-subj", "/CN=portin test private CA");
  openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", at("server.key"), "-out", at("server.csr"), "-subj", "/CN=127.0.0.1");
  await writeFile(at("san.cnf"), "subjectAltName=IP:127.0.0.1\n");
  openssl("x509", "-req", "-in", at("server.csr"), "-CA", at("ca.pem"), "-CAkey", at("ca.key"), "-CAcreateserial", "-out", at("server.pem"), "-days", "2", "-extfile", at("san.cnf"));
  return { ca: at("ca.pem"), key: await readFile(at("server.key")), cert: await readFile(at("server.pem")) };
}
