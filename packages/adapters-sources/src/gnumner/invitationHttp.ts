/** Whether a listing resource URL is an invitation DOCX (path ending in `.docx`). */
export const isInvitationDocx = (url: string): boolean => URL.canParse(url) && /\.docx$/iu.test(new URL(url).pathname)
