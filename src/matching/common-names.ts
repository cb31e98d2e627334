/**
 * Name parts that are common in the general population. Part weights come from the lists
 * themselves (a part rare on sanctions lists weighs a lot), but a customer base is not a
 * sanctions list: "Gutierrez" or "Jennifer" is rare among listed parties and common among
 * customers, and a match on such parts alone is weak evidence. Their weight is capped.
 *
 * Sources: general knowledge of the most frequent given names and surnames per region (US census
 * surname ranks, national statistics offices' given-name and surname tables, the commonest surnames
 * of Spain, Mexico, Colombia, Argentina, Brazil and Portugal, the commonest Chinese, Korean,
 * Vietnamese, Arabic, South Asian, Slavic and European names). Romanized, lowercase, without
 * diacritics; spelling variants are caught through the part comparison, not listed here.
 */
import { lettersWritten } from './abjad-letters.js';
import { remembering } from './remembered.js';
import { phoneticKey } from './similarity.js';
import { SCORING } from './scoring-table.js';

/** Weight cap (nats) of a name part common in the population: about 1 record in 60. */
export const COMMON_NAME_IDF = SCORING.COMMON_NAME_IDF.value;

const GIVEN = `
james john robert michael william david richard joseph thomas charles christopher daniel matthew anthony mark
donald steven paul andrew joshua kenneth kevin brian george timothy ronald edward jason jeffrey ryan jacob gary
nicholas eric jonathan stephen larry justin scott brandon benjamin samuel gregory alexander frank patrick raymond
jack dennis jerry tyler aaron henry peter adam nathan walter harold kyle carl arthur roger keith jeremy terry
lawrence sean christian albert joe ethan austin jesse willie billy bruce bryan ralph roy jordan eugene wayne louis
alan juan harry russell bobby victor martin philip johnny howard fred ernest
mary patricia jennifer linda elizabeth barbara susan jessica sarah karen lisa nancy betty margaret sandra ashley
kimberly emily donna michelle carol amanda dorothy melissa deborah stephanie rebecca sharon laura cynthia kathleen
amy angela shirley anna brenda pamela emma nicole helen samantha katherine christine debra rachel carolyn janet
catherine maria heather diane ruth julie olivia joyce virginia victoria kelly lauren christina joan evelyn judith
megan andrea cheryl hannah jacqueline martha gloria teresa ann sara madison frances kathryn janice jean abigail
alice judy sophia grace denise amber doris marilyn danielle beverly isabella theresa diana natalie brittany
charlotte marie kayla alexis lori jane
jose luis carlos jorge manuel francisco antonio miguel pedro alejandro fernando ricardo eduardo javier rafael
roberto sergio mario diego raul enrique oscar ramon alberto andres pablo hector arturo guillermo gabriel daniel
marco jesus angel felipe santiago mateo sebastian nicolas lucas hugo adrian alvaro ivan ignacio joao rui
ana carmen rosa lucia isabel elena laura marta cristina paula sofia valentina camila daniela gabriela mariana
fernanda adriana veronica patricia claudia monica silvia beatriz alejandra lorena natalia carolina luisa
juana margarita josefa dolores pilar mercedes rocio esperanza guadalupe leticia
hans peter klaus jurgen wolfgang michael thomas andreas stefan frank uwe karl heinz gunter werner dieter
jean pierre michel philippe alain jacques bernard louis francois nicolas marie nathalie isabelle sylvie
giuseppe giovanni francesco marco luca andrea alessandro paolo stefano roberto giulia francesca chiara sara
lars anders erik johan per nils jan piet henk willem dirk
vladimir sergei sergey alexei alexey dmitri dmitry andrei andrey nikolai nikolay ivan mikhail alexander aleksandr
yuri igor oleg viktor pavel anatoly boris evgeny yevgeny maxim roman olga tatiana natalia elena irina svetlana
anna maria ekaterina yekaterina galina lyudmila marina
mohammed muhammad mohammad mohamed mohamad ahmed ahmad ali hassan hussein husein hossein omar umar abdul abdullah
ibrahim mahmoud mahmood mustafa mostafa yusuf youssef khalid khaled said saeed hamid karim rahman rahim
fatima fatma aisha ayesha zainab maryam mariam khadija amina layla leila nour
abu bin ibn
wei jing li min hui ying yan xin jun jie tao ming hua hong lei yong ping fang lin juan xiu mei yu chen
jin yang qiang gang bo hao long tian zhi guo
min seo ji hye young yong sung soo jung hyun eun kyung jae jin ho su hee
raj ravi amit anil sunil rahul vijay sanjay ashok ramesh suresh rajesh priya anita sunita pooja deepak krishna
mehmet mustafa ahmet ali huseyin hasan ibrahim ismail osman yusuf murat fatma ayse emine hatice
nguyen van thi minh anh hoang duc
jorge julio cesar octavio hernan armando arturo ramiro ruben rodrigo gustavo emilio ernesto alfonso agustin
augusto lorenzo leonardo joaquin vicente marcos mauricio rogelio salvador sergio andres esteban fabian gerardo
gilberto gonzalo horacio humberto jaime julian leandro martin mateo matias nestor orlando rene saul teodoro
tomas ulises wilson jhon yolanda beatriz luz alba rocio marisol consuelo gladys martha liliana sandra elena
paola diana carla lina tatiana viviana ximena josefina raquel susana veronica norma alicia miriam ruth
joao paulo tiago thiago bruno rafael gabriel lucas mateus felipe vinicius gustavo leonardo rodrigo marcelo
fabio andre luiz antonio francisco sebastiao raimundo manoel jose maria ana francisca antonia adriana juliana
marcia fernanda patricia aline sandra camila amanda bruna jessica leticia vitoria
giorgio luigi mario franco enzo matteo davide simone federico riccardo alessio lorenzo emanuele
`;

const SURNAMES = `
smith johnson williams brown jones garcia miller davis rodriguez martinez hernandez lopez gonzalez wilson anderson
thomas taylor moore jackson martin lee perez thompson white harris sanchez clark ramirez lewis robinson walker
young allen king wright scott torres nguyen hill flores green adams nelson baker hall rivera campbell mitchell
carter roberts gomez phillips evans turner diaz parker cruz edwards collins reyes stewart morris morales murphy
cook rogers gutierrez ortiz morgan cooper peterson bailey reed kelly howard ramos kim cox ward richardson watson
brooks chavez wood james bennett gray mendoza ruiz hughes price alvarez castillo sanders patel myers long ross
foster jimenez powell jenkins perry russell sullivan bell coleman butler henderson barnes gonzales fisher
vasquez simmons romero jordan patterson alexander hamilton graham reynolds griffin wallace moreno west cole hayes
bryant herrera gibson ellis tran medina aguilar stevens murray ford castro marshall owens harrison fernandez
mcdonald woods washington kennedy wells vargas henry chen freeman webb tucker guzman burns crawford olson
simpson porter hunter gordon mendez silva shaw snyder mason dixon munoz hunt hicks holmes palmer wagner black
robertson boyd rose stone salazar fox warren mills meyer rice schmidt garza daniels ferguson nichols stephens
soto weaver ryan gardner payne grant dunn kelley spencer hawkins arnold pierce vazquez hansen peters santos hart
bradley knight elliott cunningham duncan armstrong hudson carroll lane riley andrews alvarado ray delgado berry
perkins hoffman johnston matthews pena richards contreras willis carpenter lawrence sandoval
gomes oliveira souza sousa pereira costa carvalho almeida ferreira ribeiro lima araujo alves rocha dias
muller mueller schneider fischer weber meyer wagner becker schulz hoffmann schafer koch bauer richter klein
wolf schroder neumann schwarz zimmermann braun kruger hofmann hartmann lange
dubois durand leroy moreau simon laurent lefebvre michel david bertrand roux vincent fournier morel girard
rossi russo ferrari esposito bianchi romano colombo ricci marino greco bruno gallo conti costa giordano
ivanov smirnov kuznetsov popov vasiliev petrov sokolov mikhailov novikov fedorov morozov volkov alekseev
lebedev semenov egorov pavlov kozlov stepanov nikolaev orlov andreev makarov zakharov
wang li zhang liu chen yang huang zhao wu zhou xu sun ma zhu hu guo he gao lin luo zheng liang xie song tang
han feng deng cao peng zeng xiao tian dong yuan pan yu jiang cai du ye cheng su wei lu ding ren shen yao
wong chan cheung leung lam ho ng tsang chow
kim lee park choi jung jeong kang cho yoon yun jang lim han oh seo shin kwon hwang ahn song ryu jeon hong
nguyen tran le pham hoang phan vu dang bui do ho ngo duong ly
singh kumar sharma patel shah gupta khan ali ahmed hussain rahman chowdhury das roy
yilmaz kaya demir sahin celik yildiz yildirim ozturk aydin ozdemir arslan dogan
hosseini mohammadi ahmadi rezaei moradi karimi jafari hashemi rahimi
munoz romero alonso navarro dominguez gil serrano blanco suarez molina ortega delgado rubio marin sanz
nunez iglesias garrido cortes lozano guerrero cano prieto mendez calvo gallego vidal leon marquez pena cabrera
campos vega fuentes carrasco caballero nieto pascual santana herrero lorenzo montero hidalgo gimenez ibanez
ferrer duran santiago benitez mora vicente arias carmona crespo roman pastor saez velasco moya soler parra
esteban bravo gallardo rojas pardo merino franco espinosa lara rivas arroyo camacho otero montes rios sierra
segura carrillo soriano juarez bautista estrada alvarado espinoza avila cervantes sandoval mejia solis ibarra
robles acosta valdez rosales pacheco zamora trejo velazquez salinas figueroa cardenas escobar valencia quintero
restrepo castano giraldo ospina cardona osorio arango zapata ocampo montoya londono duque velasquez rincon duarte
aguirre barrera beltran calderon rendon serna pineda bermudez acevedo tovar orozco maldonado vasquez villa
miranda ponce salas mercado rosario ayala galvan cisneros padilla murillo paredes
rodrigues goncalves martins carvalho lopes soares fernandes vieira barbosa nascimento andrade moreira nunes
marques machado mendes freitas cardoso teixeira pinto correia monteiro mendonca cunha batista reis moura
azevedo guimaraes coelho neves fonseca mota leite tavares brito cavalcanti pires
`;

const COMMON = new Set<string>([...GIVEN.split(/\s+/), ...SURNAMES.split(/\s+/)].filter((w) => w.length > 0));

/** True for a given name or surname that is common in the general population. */
export function isCommonName(part: string): boolean {
  return COMMON.has(part);
}

/** The common names by consonant skeleton, for reading a name written in an abjad (see isCommonInAbjad). */
let bySkeleton: Map<string, string[]> | undefined;

/**
 * True for a word read from Arabic or Hebrew script that writes a common name: one of the names
 * above with its consonant skeleton and the long vowels the script writes (حسين hsyn: Hussein,
 * Husein; ابراہیم abrahym: Ibrahim). The lists hold few names in these scripts, so without this a
 * common name written in them weighs as if it were rare.
 */
export const isCommonInAbjad = remembering((text: string): boolean => {
  if (bySkeleton === undefined) {
    bySkeleton = new Map();
    for (const name of COMMON) {
      const phonetic = phoneticKey(name);
      const list = bySkeleton.get(phonetic);
      if (list) list.push(name);
      else bySkeleton.set(phonetic, [name]);
    }
  }
  return (bySkeleton.get(phoneticKey(text)) ?? []).some((name) => lettersWritten(text, name));
});
