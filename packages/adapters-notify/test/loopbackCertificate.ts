import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"

/**
 * A self-signed certificate for 127.0.0.1 and localhost, valid for a day, written into `dir`: the key and
 * certificate for a loopback HTTPS receiver, and the certificate's file to trust (`TENDERS_WEBHOOK_CA_FILE`).
 */
export const loopbackCertificate = (dir: string) => {
  const keyFile = join(dir, "k.pem")
  const caFile = join(dir, "c.pem")
  execFileSync(
    "openssl",
    "req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1,DNS:localhost"
      .split(" ")
      .concat("-keyout", keyFile, "-out", caFile),
    { stdio: "ignore" }
  )
  return { key: readFileSync(keyFile), cert: readFileSync(caFile), caFile }
}
